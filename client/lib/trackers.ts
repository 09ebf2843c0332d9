import type { EventName } from '../schemas/events'
import { track } from './events'

/** The window as the trackers' snippets leave it. */
export type Tracked = Window & {
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
