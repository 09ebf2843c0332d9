import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals'

/**
 * Collects the visit's metrics as web-vitals reports them and sends them in one beacon when the
 * page is hidden (the last moment a browser reliably runs script for a page being left), each
 * metric once. A page restored from the back-forward cache is a new visit: web-vitals reports
 * it afresh under new ids, sent at its next hiding.
 */
export function measureVitals() {
  const queue = new Map<string, Metric>()
  const sent = new Set<string>()
  const keep = (metric: Metric) => {
    if (!sent.has(metric.id)) queue.set(metric.id, metric)
  }
  for (const on of [onCLS, onFCP, onINP, onLCP, onTTFB]) on(keep)
  // after web-vitals' own listeners (capturing, on window), which report CLS, INP and LCP then
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush()
  })
  function flush() {
    if (!queue.size) return
    const metrics = [...queue.values()].map((m) => ({ name: m.name, value: m.value }))
    for (const id of queue.keys()) sent.add(id)
    queue.clear()
    const body = JSON.stringify({
      // as the server names the page: its path, or "(not found)" (layout/document.tsx)
      path: document.body.dataset.vitals || location.pathname,
      lang: document.documentElement.lang,
      metrics,
    })
    try {
      navigator.sendBeacon('/api/vitals', new Blob([body], { type: 'application/json' }))
    } catch {
      // measuring must never get in a visitor's way
    }
  }
}
