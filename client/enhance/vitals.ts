/**
 * Real visitors' Core Web Vitals, on the public pages (the body's data-vitals): the measuring
 * (lib/vitals-beacon.ts, with the web-vitals library) is a chunk of its own, fetched once the
 * page has loaded and the browser is idle, so nothing of it stands between a visitor and the
 * first paint or the first tap. Its observers read the entries buffered before it came. A
 * visitor who leaves within that second is not measured.
 */
export function enhanceVitals() {
  if (!document.body.hasAttribute('data-vitals') || !('sendBeacon' in navigator)) return
  const idle =
    window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 1000) as unknown as number)
  const start = () =>
    idle(
      () =>
        void import('../lib/vitals-beacon').then(
          (m) => m.measureVitals(),
          () => {},
        ),
      {
        timeout: 5000,
      },
    )
  if (document.readyState === 'complete') start()
  else addEventListener('load', start, { once: true })
}
