import type { Context } from 'hono'
import { freeSlots, readAvailability } from '../booking/slots'
import { insertBooking, listBookedSlots, type Booking, type NewBooking } from '../db/bookings'
import type { AppEnv } from '../env'
import { enqueue, insertedIds, mailRow, writerOf } from '../mail/enqueue'

/** Free 30-minute slots from now, UTC ISO strings, oldest first. */
export async function currentSlots(c: Context<AppEnv>, now = new Date()) {
  const availability = readAvailability(c.env)
  const booked = await listBookedSlots(c.env.DB, now.toISOString())
  return { slots: freeSlots(availability, now, booked), timeZone: availability.timeZone }
}

/**
 * Books a slot with its two e-mails (the visitor's confirmation with the invitation, and the
 * agency's notice) in one batch; the e-mails are written only if the slot was free.
 */
export async function book(c: Context<AppEnv>, b: NewBooking) {
  const token = crypto.randomUUID()
  const call = { ...b, token, notes: b.notes || undefined }
  const agencyTimeZone = readAvailability(c.env).timeZone
  const writer = writerOf(c)
  const results = await c.env.DB.batch([
    insertBooking(c.env.DB, { ...b, token }),
    await mailRow(writer, 'booking_confirmation', b.email, call, { onlyIfInserted: true }),
    await mailRow(
      writer,
      'agency_booking',
      'agency',
      { ...call, agencyTimeZone },
      { onlyIfInserted: true },
    ),
  ])
  const inserted = results[0].results as { id: number }[]
  if (!inserted.length) return { taken: true as const }
  enqueue(c, insertedIds(results, [1, 2]))
  return { booking: { ...b, id: inserted[0].id, token } satisfies Booking }
}
