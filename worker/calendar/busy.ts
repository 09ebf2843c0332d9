import type { Interval } from '../booking/slots'
import type { Bindings } from '../bindings'
import { busyTimes } from './busy-times'
import { CalendarError, calendarOf, readCalendar } from './caldav'

/**
 * The agency's busy times, kept in D1 (calendar_status) so the slots page never waits on the
 * calendar: it answers from the last read and, when that is older than a few minutes, reads
 * again after the answer. A booking reads afresh (a meeting added a moment ago must refuse
 * it); if the calendar does not answer, the last read stands and the desk says so.
 */

/** How long a read of the calendar counts as current (CALENDAR_REFRESH_SECONDS, default 180). */
const freshFor = (env: Bindings) => {
  const seconds = Number(env.CALENDAR_REFRESH_SECONDS)
  return (
    (Number.isFinite(seconds) && seconds >= 0 && env.CALENDAR_REFRESH_SECONDS ? seconds : 180) *
    1000
  )
}

/** The site's own bookings in the calendar (booking/invitation.ts bookingUid). */
const ours = (uid: string) => /^booking-[0-9a-f-]{36}@/.test(uid)

export interface CalendarStatus {
  busy: Interval[]
  rangeEnd: number
  fetchedAt: number | null
  error: string | null
  errorAt: string | null
}

export async function calendarStatus(db: D1Database): Promise<CalendarStatus> {
  const row = await db
    .prepare(
      'SELECT busy, range_end, fetched_at, error, error_at FROM calendar_status WHERE id = 1',
    )
    .first<{
      busy: string
      range_end: string | null
      fetched_at: string | null
      error: string | null
      error_at: string | null
    }>()
  const busy = row ? (JSON.parse(row.busy) as [number, number][]) : []
  return {
    busy: busy.map(([start, end]) => ({ start, end })),
    rangeEnd: row?.range_end ? Date.parse(row.range_end) : 0,
    fetchedAt: row?.fetched_at ? Date.parse(row.fetched_at) : null,
    error: row?.error ?? null,
    errorAt: row?.error_at ?? null,
  }
}

/** Reads the calendar for the `days` from `now` and keeps what it says; a failure is kept too. */
export async function refreshBusy(env: Bindings, now: number, days: number, timeoutMs?: number) {
  const source = calendarOf(env)
  if (!source) return []
  const from = now - 86_400_000
  const to = now + (days + 2) * 86_400_000
  try {
    const busy = busyTimes(await readCalendar(source, from, to, timeoutMs), from, to, ours)
    await env.DB.prepare(
      `INSERT INTO calendar_status (id, busy, range_end, fetched_at, error, error_at)
       VALUES (1, ?1, ?2, ?3, NULL, NULL)
       ON CONFLICT (id) DO UPDATE SET busy = ?1, range_end = ?2, fetched_at = ?3, error = NULL,
         error_at = NULL`,
    )
      .bind(
        JSON.stringify(busy.map((b) => [b.start, b.end])),
        new Date(to).toISOString(),
        new Date(now).toISOString(),
      )
      .run()
    return busy
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err)
    await env.DB.prepare(
      `INSERT INTO calendar_status (id, error, error_at) VALUES (1, ?1, ?2)
       ON CONFLICT (id) DO UPDATE SET error = ?1, error_at = ?2`,
    )
      .bind(error.slice(0, 300), new Date(now).toISOString())
      .run()
    throw err instanceof CalendarError ? err : new CalendarError(error)
  }
}

/** The slots page's busy times: the last read, refreshed after the answer when stale. */
export async function cachedBusy(
  env: Bindings,
  ctx: Pick<ExecutionContext, 'waitUntil'>,
  now: number,
  days: number,
): Promise<Interval[]> {
  if (!calendarOf(env)) return []
  const status = await calendarStatus(env.DB)
  const stale =
    !status.fetchedAt ||
    now - status.fetchedAt > freshFor(env) ||
    status.rangeEnd < now + (days + 1) * 86_400_000
  if (stale)
    ctx.waitUntil(
      refreshBusy(env, now, days).catch((err) => console.error('calendar: not read', err)),
    )
  return status.busy
}

/**
 * A booking's busy times: read now; if the calendar does not answer, the last read (`fresh`
 * false: the booking goes ahead on what was known, and its event waits for the calendar).
 */
export async function currentBusy(env: Bindings, now: number, days: number) {
  if (!calendarOf(env)) return { busy: [] as Interval[], fresh: true }
  try {
    return { busy: await refreshBusy(env, now, days), fresh: true }
  } catch {
    return { busy: (await calendarStatus(env.DB)).busy, fresh: false }
  }
}
