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
 * What may hold a secret in an address the site does not flag (routes.ts `secretLink`, whose
 * pages have no tracker): a PKCE e-mail link's `code`, which comes to any page (the home page
 * by default); a token sent to a page by mistake; a session in the fragment (an implicit-flow
 * redirect of a hosted auth service).
 */
const SECRET_PARAMS = ['code', 'token', 'token_hash']
const SECRET_FRAGMENT = /(^|[#&])(access_token|refresh_token)=/

/**
 * Takes any secret out of the address bar before a tracker is told the address, and before the
 * next page is: a link followed from here reports this address as its referrer.
 */
function forgetSecrets() {
  const url = new URL(location.href)
  // (a query without them is left as it is written)
  for (const name of SECRET_PARAMS) if (url.searchParams.has(name)) url.searchParams.delete(name)
  if (SECRET_FRAGMENT.test(url.hash)) url.hash = ''
  if (url.href !== location.href) history.replaceState(history.state, '', url.href)
}

/**
 * Loads Google Analytics and the Meta Pixel (whichever is configured) after the visitor agreed.
 * Both then count this page view with its title and address (SPEC §7), once no secret is in it.
 */
export function loadTrackers(ids: TrackerIds) {
  forgetSecrets()
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
