const CHECK_EVERY_MS = 30_000
/** Where a page that shows a new session state (a sign-in, a sign-out) records it, and when. */
const CHANGED_KEY = 'session-changed'

/**
 * Keeps the navigation in step with the session: every 30 s (while the tab is visible) the
 * worker is asked, which also refreshes a token close to expiry; and a sign-in or sign-out in
 * another tab of this browser reloads this one.
 *
 * A tab learns of the change from the first page that shows it (after the sign-out has answered,
 * so its cookies are gone), by BroadcastChannel and by a record in localStorage. The record
 * covers a page that was loading when the message went out: asked for before the change, it
 * reloads as soon as its script runs, however slow the phone.
 */
export function enhanceSession() {
  const mine = document.body.dataset.session
  if (mine === undefined) return
  const channel = 'BroadcastChannel' in window ? new BroadcastChannel('session') : null
  const reloadIfChanged = (state: string) => {
    if (state !== mine) location.reload()
  }
  channel?.addEventListener('message', (event) => reloadIfChanged(String(event.data)))
  let last: { state?: string; at?: number } = {}
  try {
    last = JSON.parse(localStorage.getItem(CHANGED_KEY) ?? '{}') as typeof last
  } catch {
    // no storage (a private window): the message and the 30 s check still work
  }
  if (last.state !== undefined && last.state !== mine) {
    // changed after this page was asked for: this page is out of date
    if ((last.at ?? 0) > performance.timeOrigin) return location.reload()
    // this page shows the change first: tell the other tabs
    try {
      localStorage.setItem(CHANGED_KEY, JSON.stringify({ state: mine, at: Date.now() }))
    } catch {
      // as above
    }
    channel?.postMessage(mine)
  } else if (last.state === undefined) {
    try {
      localStorage.setItem(CHANGED_KEY, JSON.stringify({ state: mine, at: Date.now() }))
    } catch {
      // as above
    }
  }
  if (!mine) return
  setInterval(async () => {
    if (document.visibilityState !== 'visible') return
    try {
      const res = await fetch('/auth/session', { headers: { Accept: 'application/json' } })
      const { email } = (await res.json()) as { email: string | null }
      reloadIfChanged(email ?? '')
    } catch {
      // offline for a moment: try again next time
    }
  }, CHECK_EVERY_MS)
}
