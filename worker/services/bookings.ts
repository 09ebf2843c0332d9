import type { Context } from 'hono'
import { isLang } from '../../client/lib/languages'
import { freeSlots, readAvailability } from '../booking/slots'
import {
  deleteBooking,
  insertBooking,
  listBookedSlots,
  moveBookingSlot,
  type Booking,
  type NewBooking,
} from '../db/bookings'
import { audit } from '../db/desk'
import type { AppEnv } from '../env'
import { createTranslator } from '../i18n/translator'
import { enqueue, insertedIds, mailRow, writerOf, type MailWriter } from '../mail/enqueue'

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

/** The staff member changing a booking, as the audit log records them. */
export interface Actor {
  id: string
  email: string
}

/** A writer of the visitor's e-mails in the language they booked in, not the staff member's. */
function visitorWriter(c: Context<AppEnv>, language: string): MailWriter {
  const lang = isLang(language) ? language : 'en'
  return { ...writerOf(c), lang, t: lang === c.var.lang ? c.var.t : createTranslator(lang) }
}

/**
 * Cancels a booking for the agency: the row goes (its slot is free again), the visitor's e-mail
 * with the way to book again and the audit row are written in the same batch, and only if this
 * request deleted it: of two cancels of one booking, one e-mails the visitor. Returns whether
 * it was this request's cancel.
 */
export async function cancelBooking(c: Context<AppEnv>, booking: Booking, actor: Actor) {
  const db = c.env.DB
  const { name, slotStart, timeZone, email } = booking
  const results = await db.batch([
    deleteBooking(db, booking.id, slotStart),
    await mailRow(
      visitorWriter(c, booking.language),
      'booking_cancelled',
      email,
      { name, slotStart, timeZone },
      { onlyIfInserted: true },
    ),
    audit(db, actor, 'booking.cancel', `booking/${booking.id}`, { slot: slotStart }, true),
  ])
  enqueue(c, insertedIds(results, [1]))
  return results[0].results.length > 0
}

/**
 * Moves a booking to another slot for the agency: one UPDATE that the slot's UNIQUE index lets
 * through only if the slot is still free, then (same batch, only if it moved) the visitor's
 * e-mail with the new invitation and the audit row. The booking keeps its token: its .ics link
 * serves the new time. Returns whether it moved.
 */
export async function moveBooking(c: Context<AppEnv>, booking: Booking, to: string, actor: Actor) {
  const db = c.env.DB
  const { name, email, timeZone, token, notes, language, slotStart: from } = booking
  const call = { name, email, timeZone, token, notes, language, slotStart: to, previousStart: from }
  const results = await db.batch([
    moveBookingSlot(db, booking.id, from, to),
    await mailRow(visitorWriter(c, language), 'booking_moved', email, call, {
      onlyIfInserted: true,
    }),
    audit(db, actor, 'booking.move', `booking/${booking.id}`, { from, to }, true),
  ])
  enqueue(c, insertedIds(results, [1]))
  return results[0].results.length > 0
}
