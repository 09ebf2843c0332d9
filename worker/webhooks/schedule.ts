/**
 * When a failed delivery is tried again (Standard Webhooks' schedule): the first attempt at
 * once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h after the one before; ten
 * attempts over about three days, then the delivery has failed.
 */
export const SCHEDULE_MS = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  14 * 3600_000,
  20 * 3600_000,
  24 * 3600_000,
]

/** How far a wait may move either way (±15 %), so retries of many deliveries spread out. */
export const JITTER = 0.15

/** A number in [0, 1) from the platform's cryptographic random source. */
export const cryptoRandom = () => crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32

/**
 * The wait after `attempts` attempts have failed, jittered; null once the schedule is spent.
 */
export function nextDelay(attempts: number, random: () => number = cryptoRandom) {
  if (attempts >= SCHEDULE_MS.length) return null
  const base = SCHEDULE_MS[attempts]
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()))
}

/** The longest wait a Retry-After may ask for (a day: the schedule's longest step). */
export const RETRY_AFTER_MAX_MS = 24 * 3600_000

/**
 * A Retry-After header (RFC 9110: delay-seconds or an HTTP date) as milliseconds from `now`,
 * at most RETRY_AFTER_MAX_MS; null when absent or unreadable.
 */
export function retryAfterMs(value: string | null, now: number) {
  if (!value) return null
  const text = value.trim()
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now
  if (!Number.isFinite(ms)) return null
  return Math.min(Math.max(ms, 0), RETRY_AFTER_MAX_MS)
}
