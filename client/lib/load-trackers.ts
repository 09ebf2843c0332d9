import type { Tracked, TrackerIds } from './trackers'

// Fetched only where trackers are configured and the visitor allowed them
// (client/enhance/consent.ts): most visits never need it.

function addScript(src: string) {
  const script = document.createElement('script')
  script.async = true
  script.src = src
  document.head.appendChild(script)
}

/**
 * Loads Google Analytics and the Meta Pixel (whichever is configured) after the visitor agreed.
 * Both then count this page view with its title and address (SPEC §7).
 */
export function loadTrackers(ids: TrackerIds) {
  const w = window as Tracked & { _fbq?: unknown }
  if (ids.gaMeasurementId && !w.gtag) {
    w.dataLayer = w.dataLayer ?? []
    w.gtag = function gtag() {
      // gtag.js reads the arguments object itself, as its own snippet does
      // eslint-disable-next-line prefer-rest-params
      w.dataLayer!.push(arguments)
    }
    w.gtag('js', new Date())
    w.gtag('config', ids.gaMeasurementId, {
      page_title: document.title,
      page_location: location.href,
    })
    addScript(
      `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(ids.gaMeasurementId)}`,
    )
  }
  if (ids.metaPixelId && !w.fbq) {
    // the queue the Meta Pixel's own loader sets up, until fbevents.js takes over
    const queue: unknown[][] = []
    const fbq = Object.assign((...args: unknown[]) => queue.push(args), {
      queue,
      loaded: true,
      version: '2.0',
      push: (...args: unknown[]) => queue.push(args),
    })
    w.fbq = fbq
    w._fbq = fbq
    fbq('init', ids.metaPixelId)
    fbq('track', 'PageView')
    addScript('https://connect.facebook.net/en_US/fbevents.js')
  }
}
