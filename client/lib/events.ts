import type { EventName } from '../schemas/events'

/**
 * Reports a conversion event to our own edge analytics (no cookies, nothing personal). Uses
 * sendBeacon so it survives the page being left; never throws.
 */
export function track(name: EventName, props?: Record<string, string | number | boolean>) {
  try {
    const body = JSON.stringify({ name, path: location.pathname, props })
    const blob = new Blob([body], { type: 'application/json' })
    if (!navigator.sendBeacon?.('/api/events', blob))
      void fetch('/api/events', {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json' },
        keepalive: true,
      }).catch(() => {})
  } catch {
    // analytics must never get in a visitor's way
  }
}
