import { isLang } from '../../client/lib/languages'
import { siteConfig } from '../config'
import { findBookingById } from '../db/bookings'
import { claimReminder, listDueReminders } from '../db/reminders'
import type { Bindings } from '../bindings'
import { createTranslator } from '../i18n/translator'
import { insertedIds, mailRow, sendJobs } from '../mail/enqueue'

/**
 * The reminders of coming calls, each sent once: a day before (from 24 hours ahead, if the call
 * was booked earlier than that) and an hour before (if booked earlier than that). A move clears
 * both: the new time is reminded afresh.
 */
const REMINDERS = [
  { hours: 24, column: 'reminded_24h_at', until: 60 * 60_000 },
  { hours: 1, column: 'reminded_1h_at', until: 0 },
] as const

/**
 * The reminders due at `now`. Each is claimed and its e-mail written in one D1 batch (one
 * transaction): a failure leaves both undone, and the next run sends it. One that fails does not
 * hold up the others; the run throws at the end if any failed.
 */
export async function sendReminders(env: Bindings, now = Date.now()) {
  const db = env.DB
  const config = siteConfig(env)
  const at = new Date(now).toISOString()
  const sent: number[] = []
  const failed: unknown[] = []
  try {
    for (const r of REMINDERS) {
      const due = await listDueReminders(
        db,
        r.column,
        r.hours,
        new Date(now + r.until).toISOString(),
        new Date(now + r.hours * 3600_000).toISOString(),
      )
      for (const id of due)
        try {
          const booking = await findBookingById(db, id)
          if (!booking) continue
          const lang = isLang(booking.language) ? booking.language : 'en'
          const results = await db.batch([
            claimReminder(db, booking, r.column, at),
            await mailRow(
              { env, config, lang, t: createTranslator(lang) },
              'booking_reminder',
              booking.email,
              { ...booking, hours: r.hours },
              { onlyIfInserted: true },
            ),
          ])
          sent.push(...insertedIds(results, [1]))
        } catch (err) {
          failed.push(err)
          console.error(`reminders: booking ${id} not reminded, the next run tries again`, err)
        }
    }
  } finally {
    await sendJobs(env, sent)
  }
  if (failed.length) throw new AggregateError(failed, `reminders: ${failed.length} not written`)
  return sent
}
