import { vi } from 'vitest'

/**
 * Counts kept per fixed window of time (the auth service's failed attempts, per
 * AUTH_FAILURE_WINDOW) start afresh at each window's edge: a test that crossed one would find
 * its count gone. From here on the test's clock (Date, for the test and the Worker it calls)
 * runs at the real pace from the middle of the window it is in. Undo with vi.useRealTimers().
 */
export function midWindow(seconds: number) {
  const ms = seconds * 1000
  vi.useFakeTimers({
    now: Math.floor(Date.now() / ms) * ms + ms / 2,
    toFake: ['Date'],
    shouldAdvanceTime: true,
  })
}

/**
 * Miniflare's rate limits count per whole minute of the real clock, in a Worker of their own
 * that no fake clock reaches: a burst of requests that would cross a minute's end waits for the
 * next minute first (at most `ms`, in a sixth of runs for the default).
 */
export async function freshMinute(ms = 10_000) {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < ms) await new Promise((resolve) => setTimeout(resolve, left + 50))
}
