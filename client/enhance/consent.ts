import type { TrackerIds } from '../lib/trackers'

// fetched only where trackers are configured and allowed: most visits never need it
const loadTrackers = (ids: TrackerIds) =>
  import('../lib/load-trackers').then(
    (m) => m.loadTrackers(ids),
    () => {},
  )

/**
 * The tracker consent banner: its answer goes to the server (which remembers it in a cookie)
 * and, if it is yes, the trackers load at once. The footer's cookie settings reopen it.
 */
export function enhanceConsent() {
  // (no trackers: the banner asks for an experiment's count alone)
  const raw = document.body.dataset.trackers
  const ids = raw ? (JSON.parse(raw) as TrackerIds) : undefined
  if (ids && document.body.dataset.consent === 'granted') void loadTrackers(ids)

  const banner = document.getElementById('consent-banner')
  if (!banner) return
  banner.querySelector('form')?.addEventListener('submit', async (event) => {
    event.preventDefault()
    const choice = ((event as SubmitEvent).submitter as HTMLButtonElement | null)?.value
    if (choice !== 'granted' && choice !== 'denied') return
    const res = await fetch('/api/consent', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ choice }),
    }).catch(() => null)
    if (!res?.ok) return
    document.body.dataset.consent = choice
    banner.hidden = true
    if (ids && choice === 'granted') void loadTrackers(ids)
    // Withdrawing consent: the trackers already running on this page stop with the next page.
  })
  document.addEventListener('click', (event) => {
    if (!(event.target as Element).closest('[data-consent-settings]')) return
    event.preventDefault()
    banner.hidden = false
    banner.querySelector<HTMLButtonElement>('button')?.focus()
  })
}
