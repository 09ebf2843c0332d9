import * as v from 'valibot'
import { challengeFields } from './challenge'

/** A consultation booking (/book). `slot` is the UTC start of one of the offered slots. */
export const BookingSchema = v.strictObject(
  {
    slot: v.pipe(v.string('invalid'), v.nonEmpty('slot_required'), v.isoTimestamp('slot_required')),
    name: v.pipe(
      v.string('invalid'),
      v.trim(),
      v.nonEmpty('required'),
      v.maxLength(100, 'too_long'),
    ),
    email: v.pipe(
      v.string('invalid'),
      v.trim(),
      v.toLowerCase(),
      v.nonEmpty('required'),
      v.maxLength(254, 'too_long'),
      v.email('invalid_email'),
    ),
    notes: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(1000, 'too_long'))),
    timeZone: v.optional(v.pipe(v.string('invalid'), v.maxLength(64, 'invalid'))),
    website: v.optional(v.string('invalid')),
    ...challengeFields,
  },
  'invalid',
)
