const CHECK_EVERY_MS = 30_000

/**
 * Keeps the navigation in step with the session: every 30 s (while the tab is visible) the
 * worker is asked, which also refreshes a token close to expiry; and a sign-in or sign-out in
 * another tab of this browser reloads this one (BroadcastChannel).
 */
export function enhanceSession() {
  const mine = document.body.dataset.session
  if (mine === undefined) return
  const channel = 'BroadcastChannel' in window ? new BroadcastChannel('session') : null
  const reloadIfChanged = (state: string) => {
    if (state !== mine) location.reload()
  }
  channel?.addEventListener('message', (event) => reloadIfChanged(String(event.data)))
  // tell the other tabs what this page knows (a fresh sign-in or sign-out shows up here first)
  channel?.postMessage(mine)
  document.addEventListener('submit', (event) => {
    // the attribute: a form with a control named "action" (the desk's editor) shadows the property
    if ((event.target as HTMLFormElement).getAttribute('action')?.endsWith('/auth/sign-out'))
      channel?.postMessage('')
  })
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
