/**
 * The provider's pace (listmonk's "rate", Mailchimp's throttle): every call to a provider first
 * reserves a slot, at most `rate` a second, shared through D1 by every invocation that sends
 * (the queue runs many at once). A 429 moves the next slot past its Retry-After, so nobody
 * calls again before the provider said "now".
 */

/** Time as the sender sees it: the real one, or a simulated one in the drain test. */
export interface Clock {
  now(): number
  sleep(ms: number): Promise<void>
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

export type Slot = { at: number } | { busyUntil: number }

/**
 * Reserves the provider's next call: `{at}`, the time it may go (now, or within `maxWaitMs`),
 * or `{busyUntil}` when the pace is further ahead than that (a long Retry-After, a queue of
 * callers): nothing is reserved then, and the caller comes back later.
 */
export async function reserveSlot(
  db: D1Database,
  provider: string,
  rate: number,
  now: number,
  maxWaitMs: number,
): Promise<Slot> {
  const interval = Math.ceil(1000 / rate)
  const [reserved, pace] = await db.batch<{ at?: number; next_at?: number }>([
    db
      .prepare(
        `INSERT INTO mail_pace (provider, next_at) VALUES (?1, ?2 + ?3)
         ON CONFLICT (provider) DO UPDATE SET next_at = max(next_at, ?2) + ?3
         WHERE mail_pace.next_at <= ?2 + ?4
         RETURNING next_at - ?3 AS at`,
      )
      .bind(provider, now, interval, maxWaitMs),
    db.prepare('SELECT next_at FROM mail_pace WHERE provider = ?').bind(provider),
  ])
  const at = reserved.results[0]?.at
  if (at !== undefined) return { at }
  return { busyUntil: pace.results[0]?.next_at ?? now }
}

/** The provider said "not before `until`" (429 Retry-After): no call goes before then. */
export const holdUntil = (db: D1Database, provider: string, until: number) =>
  db
    .prepare(
      `INSERT INTO mail_pace (provider, next_at) VALUES (?1, ?2)
       ON CONFLICT (provider) DO UPDATE SET next_at = max(next_at, ?2)`,
    )
    .bind(provider, until)
    .run()

/** A Retry-After header (seconds, or an HTTP date) in seconds from now; `fallback` without. */
export function retryAfterSeconds(header: string | null, now: number, fallback = 1) {
  if (!header) return fallback
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, seconds)
  const date = Date.parse(header)
  return Number.isFinite(date) ? Math.max(0, Math.ceil((date - now) / 1000)) : fallback
}
