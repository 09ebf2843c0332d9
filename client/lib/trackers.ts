import type { EventName } from '../schemas/events'
import { track } from './events'

type Tracked = Window & {
  fbq?: (...args: unknown[]) => void
  gtag?: (...args: unknown[]) => void
  dataLayer?: unknown[]
}

/** Which conversion event each lead form counts as in our own analytics. */
const EVENT_OF: Record<string, EventName> = {
  welcome_popup: 'lead',
  guide: 'guide_download',
  newsletter: 'newsletter',
  contact: 'contact_message',
  booking: 'booking_made',
}

/**
 * Tells our edge analytics and, if the visitor allowed them, the ad and analytics trackers
 * about a lead (SPEC §7).
 */
export function reportLead(form: string) {
  track(EVENT_OF[form] ?? 'lead', { form })
  const w = window as Tracked
  try {
    w.fbq?.('track', 'Lead', { content_name: form })
    w.gtag?.('event', 'generate_lead', { form })
    w.dataLayer?.push({ event: 'generate_lead', form })
  } catch (err) {
    // A broken tracker must never break the form.
    console.warn('tracker failed', err)
  }
}

export type TrackerIds = { metaPixelId: string; gaMeasurementId: string }

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
