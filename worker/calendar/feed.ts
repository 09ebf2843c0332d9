import type { Context } from 'hono'
import { calendarFile } from '../booking/ics'
import { listUpcomingBookings } from '../db/bookings'
import { randomHex, sameToken } from '../hash'
import type { AppEnv } from '../env'
import { agencyEventOf } from './sync'
import { createTranslator } from '../i18n/translator'
import { agencyLanguage } from '../mail/enqueue'

/**
 * GET /desk/calendar.ics?token=: the agency's bookings as an iCalendar feed any calendar app
 * can subscribe to (the last 30 days and everything to come). A calendar app cannot sign in,
 * so the address itself is the key: a random token kept in D1, shown in the desk, replaced
 * there when it leaks (the old address then answers 404).
 */

/** The feed's token, made once. */
export async function feedToken(db: D1Database, renew = false) {
  const fresh = randomHex(24)
  await db
    .prepare(
      `INSERT INTO site_secrets (name, value) VALUES ('calendar_feed', ?1)
       ON CONFLICT (name) DO ${renew ? 'UPDATE SET value = ?1' : 'NOTHING'}`,
    )
    .bind(fresh)
    .run()
  const row = await db
    .prepare("SELECT value FROM site_secrets WHERE name = 'calendar_feed'")
    .first<{ value: string }>()
  return row!.value
}

/** A new booking reaches a subscribed calendar app within this (apps that obey it). */
const FEED_REFRESH_MINUTES = 5

export async function calendarFeed(c: Context<AppEnv>) {
  const token = c.req.query('token') ?? ''
  if (!token || !(await sameToken(token, await feedToken(c.env.DB)))) return c.notFound()
  const from = new Date(Date.now() - 30 * 86_400_000).toISOString()
  const bookings = await listUpcomingBookings(c.env.DB, from, 2000)
  // named in the agency's language, as its events are: a calendar app's request says nothing of it
  const ics = calendarFile(
    bookings.map((b) => agencyEventOf(c.env, b, c.var.config.siteUrl)),
    {
      name: createTranslator(agencyLanguage(c.env))('desk_bookings.feed_name'),
      refreshMinutes: FEED_REFRESH_MINUTES,
    },
  )
  return c.body(ics, 200, {
    'Content-Type': 'text/calendar; charset=utf-8',
    'Cache-Control': `private, max-age=${FEED_REFRESH_MINUTES * 60}`,
    'X-Robots-Tag': 'noindex',
  })
}
