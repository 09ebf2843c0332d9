import { eventFor, uidOf } from '../booking/invitation'
import { invitation } from '../booking/ics'
import { siteConfig } from '../config'
import type { Booking } from '../db/bookings'
import { findBookingById } from '../db/bookings'
import type { Bindings } from '../bindings'
import { createTranslator } from '../i18n/translator'
import { agencyLanguage } from '../mail/enqueue'
import { calendarOf, deleteEvent, putEvent, type CalendarSource } from './caldav'

/**
 * The bookings written into the agency's calendar (CalDAV), from what D1 says is owed: a
 * booking `pending` (new, or moved: its event is PUT again with the same UID and a higher
 * SEQUENCE) and every row of calendar_deletions (a cancelled booking's event). Nothing is lost
 * when the calendar does not answer: the rows stay, the calendar queue tries again in a
 * minute, and the five-minute cron after that.
 */

/** The queue of calendar writes that did not go through at once (wrangler.toml). */
export const CALENDAR_QUEUE = 'growth-agency-calendar'

/** The queue message of a calendar sync. */
export interface CalendarJob {
  sync: true
}

/** How the booking's event reads in the agency's own calendar: who, and how to reach them. */
export function agencyEventOf(env: Bindings, booking: Booking, seen?: string) {
  const lang = agencyLanguage(env)
  const t = createTranslator(lang)
  // `seen`: the origin of the request that reads it (the feed); the calendar's writes have none
  const config = siteConfig(env, seen)
  return eventFor({ t, config }, booking, {
    method: null,
    summary: t('booking.agency_event', { name: booking.name }),
    description: [
      `${t('mail.label_name')}: ${booking.name}`,
      `${t('mail.label_email')}: ${booking.email}`,
      booking.meetingUrl,
      booking.notes,
    ]
      .filter(Boolean)
      .join('\n'),
  })
}

const agencyEvent = (env: Bindings, booking: Booking) => invitation(agencyEventOf(env, booking))

async function putBooking(env: Bindings, source: CalendarSource, id: number) {
  const booking = await findBookingById(env.DB, id)
  if (!booking) return
  const config = siteConfig(env)
  await putEvent(source, uidOf(booking, config.siteUrl), agencyEvent(env, booking))
  // done only for the version written: a move meanwhile leaves it pending
  await env.DB.prepare(
    `UPDATE bookings SET calendar_state = 'synced', calendar_error = NULL
     WHERE id = ? AND sequence = ? AND slot_start = ?`,
  )
    .bind(booking.id, booking.sequence, booking.slotStart)
    .run()
}

/** Writes what is owed; the number still owed after this run (0: all written). */
export async function syncCalendar(env: Bindings, limit = 20) {
  const source = calendarOf(env)
  if (!source?.caldav) return 0
  const db = env.DB
  const [pending, deletions] = await db.batch<{ id?: number; uid?: string }>([
    db
      .prepare("SELECT id FROM bookings WHERE calendar_state = 'pending' ORDER BY id LIMIT ?")
      .bind(limit),
    db.prepare('SELECT uid FROM calendar_deletions ORDER BY created_at LIMIT ?').bind(limit),
  ])
  let owed = 0
  for (const { id } of pending.results)
    try {
      await putBooking(env, source, id!)
    } catch (err) {
      owed++
      await db
        .prepare('UPDATE bookings SET calendar_error = ? WHERE id = ?')
        .bind(String(err instanceof Error ? err.message : err).slice(0, 300), id)
        .run()
    }
  for (const { uid } of deletions.results)
    try {
      await deleteEvent(source, uid!)
      await db.prepare('DELETE FROM calendar_deletions WHERE uid = ?').bind(uid).run()
    } catch (err) {
      owed++
      await db
        .prepare(
          'UPDATE calendar_deletions SET attempts = attempts + 1, last_error = ? WHERE uid = ?',
        )
        .bind(String(err instanceof Error ? err.message : err).slice(0, 300), uid)
        .run()
    }
  return owed
}

/** After a change: write it now; what the calendar would not take goes on the queue. */
export async function syncSoon(env: Bindings) {
  const owed = await syncCalendar(env).catch((err) => {
    console.error('calendar: sync failed', err)
    return 1
  })
  if (owed)
    await env.CALENDAR_QUEUE.send({ sync: true } satisfies CalendarJob, {
      contentType: 'json',
      delaySeconds: 60,
    }).catch((err) => console.error('calendar: not queued, the cron will retry', err))
}

/** The calendar queue's consumer: sync, and again later while something is owed. */
export async function consumeCalendar(batch: MessageBatch<CalendarJob>, env: Bindings) {
  const owed = await syncCalendar(env).catch(() => 1)
  for (const message of batch.messages)
    if (owed) message.retry({ delaySeconds: Math.min(60 * 2 ** (message.attempts - 1), 900) })
    else message.ack()
}
