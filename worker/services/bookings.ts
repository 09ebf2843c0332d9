import type { Context } from 'hono'
import { countConversion } from '../experiments/counting'
import { isLang } from '../../client/lib/languages'
import { endOf, guardFor, loadAvailability } from '../booking/availability'
import { bookingUid, uidOf } from '../booking/invitation'
import { randomHex } from '../hash'
import { freeSlots, type Availability } from '../booking/slots'
import { cachedBusy, currentBusy } from '../calendar/busy'
import { calendarOf } from '../calendar/caldav'
import { openLink } from '../consent/links'
import { syncSoon } from '../calendar/sync'
import {
  deleteBooking,
  findBooking,
  insertBooking,
  keepCancellation,
  listBookedIntervals,
  moveBookingSlot,
  type Booking,
  type CancelledBooking,
  type NewBooking,
} from '../db/bookings'
import { audit } from '../db/desk'
import type { Bindings } from '../bindings'
import type { AppEnv } from '../env'
import { createTranslator } from '../i18n/translator'
import { enqueue, insertedIds, mailGoes, mailRow, writerOf, type MailWriter } from '../mail/enqueue'
import type { ChangedCall } from '../mail/templates/booking'
import { dispatch, eventOf, type NewEvent } from '../webhooks/events'

/**
 * Free slots from now, UTC ISO strings, oldest first, and what they were made from. The
 * calendar's busy times are the last read (calendar/busy.ts): this never waits on the calendar.
 * `except`: a booking being moved, which frees its own time and the buffer around it.
 */
export async function currentSlots(
  c: Context<AppEnv>,
  { now = new Date(), except }: { now?: Date; except?: number } = {},
) {
  const [availability, booked] = await Promise.all([
    loadAvailability(c.env),
    listBookedIntervals(c.env.DB, now.toISOString(), except),
  ])
  const busy = await cachedBusy(c.env, c.executionCtx, now.getTime(), availability.daysAhead)
  return {
    slots: freeSlots(availability, now, booked, busy),
    timeZone: availability.timeZone,
    lengthMinutes: availability.lengthMinutes,
    availability,
  }
}

/**
 * Books a slot with its two e-mails (the visitor's confirmation with the invitation, and the
 * agency's notice) in one batch; the e-mails are written only if the slot was free.
 */
export async function book(
  c: Context<AppEnv>,
  request: Omit<NewBooking, 'slotEnd'>,
  /** As the caller read it for the slots it checked (read here otherwise). */
  availability?: Availability,
) {
  const token = crypto.randomUUID()
  availability ??= await loadAvailability(c.env)
  const b = {
    ...request,
    slotEnd: endOf(request.slotStart, availability.lengthMinutes),
    meetingUrl: meetingUrlFor(c.env),
    uid: bookingUid(token, c.var.config.siteUrl),
  }
  // the calendar read now: a meeting added since the slots were listed takes the slot
  if (await calendarTakes(c.env, availability, b.slotStart, b.slotEnd))
    return { taken: true as const }
  const call = { ...b, token, notes: b.notes || undefined }
  const agencyTimeZone = availability.timeZone
  const writer = writerOf(c)
  const results = await c.env.DB.batch([
    insertBooking(
      c.env.DB,
      { ...b, token },
      guardFor(availability, b.slotStart),
      !!calendarOf(c.env)?.caldav,
    ),
    await mailRow(
      writer,
      'agency_booking',
      'agency',
      { ...call, agencyTimeZone },
      { onlyIfInserted: true },
    ),
    await mailRow(writer, 'booking_confirmation', b.email, call, { onlyIfInserted: true }),
    // its booking.created webhook (the booking is there only if this batch added it)
    ...eventOf(
      c,
      bookingEvent('booking.created', b, {
        sql: '(SELECT id FROM bookings WHERE token = ?)',
        args: [token],
      }),
    ),
  ])
  const inserted = results[0].results as { id: number }[]
  if (!inserted.length) return { taken: true as const }
  enqueue(c, insertedIds(results, [1, 2]))
  dispatch(c, results[4])
  c.executionCtx.waitUntil(syncSoon(c.env))
  await countConversion(c, 'booking')
  return {
    booking: { ...b, id: inserted[0].id, token, sequence: 0 } satisfies Booking,
    /** The visitor's confirmation goes (not over a ceiling). */
    mailed: mailGoes(results, 2),
  }
}

/**
 * Whether the agency's calendar, read now (the last read if it does not answer), has a busy
 * time within the buffer of the span `start`–`end`.
 */
async function calendarTakes(env: Bindings, a: Availability, start: string, end: string) {
  const { busy } = await currentBusy(env, Date.now(), a.daysAhead)
  const span = { start: Date.parse(start), end: Date.parse(end) }
  const buffer = a.bufferMinutes * 60_000
  return busy.some((t) => span.start < t.end + buffer && span.end > t.start - buffer)
}

/** Where to meet: a fixed room (MEETING_URL), or a room of its own (MEETING_ROOM_BASE). */
export function meetingUrlFor(env: Bindings) {
  if (env.MEETING_URL) return env.MEETING_URL
  if (!env.MEETING_ROOM_BASE) return undefined
  // 96 random bits: a room nobody finds by guessing
  return `${env.MEETING_ROOM_BASE}${randomHex(12)}`
}

/**
 * A cancelled booking's event, owed to the calendar until it is deleted there (a statement
 * for the cancel's batch: written once the booking is gone, whoever deleted it).
 */
function calendarDeletion(c: Context<AppEnv>, booking: Booking) {
  if (!calendarOf(c.env)?.caldav) return []
  const db = c.env.DB
  return [
    db
      .prepare(
        `INSERT INTO calendar_deletions (uid) SELECT ?
         WHERE NOT EXISTS (SELECT 1 FROM bookings WHERE id = ?) ON CONFLICT DO NOTHING`,
      )
      .bind(uidOf(booking, c.var.config.siteUrl), booking.id),
  ]
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
export async function cancelBooking(
  c: Context<AppEnv>,
  booking: Booking,
  actor: Actor,
  byVisitor = false,
) {
  const db = c.env.DB
  const { name, slotStart, timeZone, email } = booking
  // the cancel for calendars: the same UID, one SEQUENCE more than the last invitation
  const invitation = {
    ...invitationOf(booking),
    uid: uidOf(booking, c.var.config.siteUrl),
    sequence: booking.sequence + 1,
  }
  const results = await db.batch([
    deleteBooking(db, booking.id, slotStart),
    await mailRow(
      visitorWriter(c, booking.language),
      'booking_cancelled',
      email,
      { name, slotStart, timeZone, byVisitor, invitation },
      { onlyIfInserted: true },
    ),
    ...(await agencyTold(c, byVisitor, {
      ...{ name, email, slotStart },
      invitation: { ...invitation, cancelled: true },
    })),
    audit(db, actor, 'booking.cancel', `booking/${booking.id}`, { slot: slotStart }, true),
    ...calendarDeletion(c, booking),
    // its .ics link serves the cancel from now on
    keepCancellation(db, booking.id, invitation),
    // its booking.cancelled webhook: only if the cancel was kept just now (this request's)
    ...eventOf(c, {
      ...bookingEvent('booking.cancelled', booking, booking.id),
      when: { sql: 'changes() > 0', args: [] },
      data: { ...bookingData(booking), by: byVisitor ? 'visitor' : 'agency' },
    }),
  ])
  enqueue(c, insertedIds(results, byVisitor ? [1, 2] : [1]))
  dispatch(c, results.at(-1))
  c.executionCtx.waitUntil(syncSoon(c.env))
  return results[0].results.length > 0
}

/** What a booking's invitation is made of, for the e-mails that carry it. */
const invitationOf = (b: Booking): CancelledBooking => ({
  ...{ name: b.name, email: b.email, token: b.token, meetingUrl: b.meetingUrl },
  ...{ slotStart: b.slotStart, slotEnd: b.slotEnd, uid: b.uid, sequence: b.sequence },
})

/** The agency's notice of a visitor's own change (statements for its batch; none for staff's). */
async function agencyTold(
  c: Context<AppEnv>,
  byVisitor: boolean,
  change: Omit<ChangedCall, 'agencyTimeZone'>,
) {
  if (!byVisitor) return []
  const { timeZone: agencyTimeZone } = await loadAvailability(c.env)
  return [
    await mailRow(
      writerOf(c),
      'agency_booking_changed',
      'agency',
      { ...change, agencyTimeZone },
      {
        onlyIfInserted: true,
      },
    ),
  ]
}

/**
 * Moves a booking to another slot for the agency: one UPDATE that the slot's UNIQUE index lets
 * through only if the slot is still free, then (same batch, only if it moved) the visitor's
 * e-mail with the new invitation and the audit row. The booking keeps its token: its .ics link
 * serves the new time. Returns whether it moved.
 */
export async function moveBooking(
  c: Context<AppEnv>,
  booking: Booking,
  to: string,
  actor: Actor,
  byVisitor = false,
) {
  const db = c.env.DB
  const { name, email, timeZone, token, notes, language, slotStart: from } = booking
  // already there: nothing moves, nobody is told
  if (to === from) return false
  // the meeting keeps its length; the target day's buffer and maximum hold
  const toEnd = endOf(to, (Date.parse(booking.slotEnd) - Date.parse(from)) / 60_000)
  const call = {
    ...{ name, email, timeZone, token, notes, language, meetingUrl: booking.meetingUrl },
    uid: booking.uid,
    ...{ slotStart: to, slotEnd: toEnd, previousStart: from, sequence: booking.sequence + 1 },
  }
  const availability = await loadAvailability(c.env)
  // the calendar read now: a meeting added since the slots were listed takes the slot
  if (await calendarTakes(c.env, availability, to, toEnd)) return false
  const results = await db.batch([
    moveBookingSlot(db, booking.id, from, to, toEnd, guardFor(availability, to)),
    await mailRow(visitorWriter(c, language), 'booking_moved', email, call, {
      onlyIfInserted: true,
    }),
    audit(db, actor, 'booking.move', `booking/${booking.id}`, { from, to }, true),
    ...(await agencyTold(c, byVisitor, {
      ...{ name, email, slotStart: from, movedTo: to },
      invitation: { ...invitationOf(booking), ...call },
    })),
    // its booking.moved webhook: the statement before it wrote only if the booking moved
    ...eventOf(c, {
      ...bookingEvent('booking.moved', { ...booking, slotStart: to, slotEnd: toEnd }, booking.id),
      when: { sql: 'changes() > 0', args: [] },
      data: {
        ...bookingData({ ...booking, slotStart: to, slotEnd: toEnd }),
        previous_start: from,
        by: byVisitor ? 'visitor' : 'agency',
      },
    }),
  ])
  enqueue(c, insertedIds(results, byVisitor ? [1, 3] : [1]))
  dispatch(c, results.at(-1))
  c.executionCtx.waitUntil(syncSoon(c.env))
  return results[0].results.length > 0
}

/** What a booking's webhooks carry: every endpoint gets `data`, only those that ask `personal`. */
const bookingData = (b: Pick<Booking, 'slotStart' | 'slotEnd' | 'timeZone' | 'language'>) => ({
  language: b.language,
  page: '/book',
  slot_start: b.slotStart,
  slot_end: b.slotEnd,
  time_zone: b.timeZone,
})

function bookingEvent(
  type: 'booking.created' | 'booking.moved' | 'booking.cancelled',
  b: Pick<Booking, 'slotStart' | 'slotEnd' | 'timeZone' | 'language' | 'name' | 'email' | 'notes'>,
  item: NewEvent['item'],
): NewEvent {
  return {
    type,
    item,
    deskPath: '/desk/bookings',
    data: bookingData(b),
    personal: { name: b.name, email: b.email, notes: b.notes || null },
  }
}

/** The booking behind a manage link, or why there is none (expired link, booking gone). */
export async function managedBooking(c: Context<AppEnv>, token: string | undefined) {
  const link = await openLink(c.env, token, 'booking')
  if (!link.ok) return { problem: link.reason }
  const booking = await findBooking(c.env.DB, link.claims.t)
  if (!booking || booking.slotStart < new Date().toISOString()) return { problem: 'gone' as const }
  return { booking }
}
