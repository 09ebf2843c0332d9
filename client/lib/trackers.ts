type Tracked = Window & {
  fbq?: (...args: unknown[]) => void
  gtag?: (...args: unknown[]) => void
  dataLayer?: unknown[]
}

/** Tells the ad and analytics trackers about a lead, if any are on the page (SPEC §7). */
export function reportLead(form: string) {
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
