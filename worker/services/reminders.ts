import { isLang } from '../../client/lib/languages'
import { siteConfig } from '../config'
import { findBookingById } from '../db/bookings'
import type { Bindings } from '../bindings'
import { createTranslator } from '../i18n/translator'
import { insertedIds, mailRow, sendJobs } from '../mail/enqueue'

/**
 * The reminders of coming calls, each sent once (the cron claims it by setting its time): a day
 * before (from 24 hours ahead, if the call was booked earlier than that) and an hour before (if
 * booked earlier than that). A move clears both: the new time is reminded afresh.
 */
const REMINDERS = [
  { hours: 24, column: 'reminded_24h_at', until: 60 * 60_000 },
  { hours: 1, column: 'reminded_1h_at', until: 0 },
] as const

export async function sendReminders(env: Bindings, now = Date.now()) {
  const db = env.DB
  const sent: number[] = []
  for (const r of REMINDERS) {
    const ahead = new Date(now + r.hours * 3600_000).toISOString()
    const { results } = await db
      .prepare(
        `UPDATE bookings SET ${r.column} = ?1
         WHERE ${r.column} IS NULL AND slot_start <= ?2 AND slot_start > ?3 AND unchecked = 0
           AND created_at <= strftime('%Y-%m-%dT%H:%M:%fZ', slot_start, '-${r.hours} hours')
         RETURNING id`,
      )
      .bind(new Date(now).toISOString(), ahead, new Date(now + r.until).toISOString())
      .all<{ id: number }>()
    for (const { id } of results) {
      const booking = await findBookingById(db, id)
      if (!booking) continue
      const lang = isLang(booking.language) ? booking.language : 'en'
      const config = siteConfig(env)
      const row = await mailRow(
        { env, config, lang, t: createTranslator(lang) },
        'booking_reminder',
        booking.email,
        { ...booking, hours: r.hours },
      )
      const [written] = await db.batch([row])
      sent.push(...insertedIds([written], [0]))
    }
  }
  await sendJobs(env, sent)
  return sent
}
