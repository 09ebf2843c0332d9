import { openDialog } from './dialogs'

/** Browser flag: the visitor has seen (and closed) the welcome popup. */
export const WELCOME_SEEN_KEY = 'welcome-popup-seen'
const DELAY_MS = 2000

/**
 * Opens the welcome popup 2 s after the page appears unless this browser has closed it before
 * (SPEC §4). On a visit's first page the splash covers the page for 1.8 s, and "then the app
 * appears": the 2 s start when the splash has faded, so the popup never pops up straight after.
 */
export function enhanceWelcomePopup() {
  const dialog = document.getElementById('welcome-popup') as HTMLDialogElement | null
  if (!dialog) return
  let seen = true
  try {
    seen = localStorage.getItem(WELCOME_SEEN_KEY) !== null
  } catch {
    // no storage: never nag on every page
  }
  if (seen) return
  // Button, Escape and a click on the backdrop all end in `close`; remember it.
  dialog.addEventListener('close', () => {
    try {
      localStorage.setItem(WELCOME_SEEN_KEY, '1')
    } catch {
      // nothing to remember with
    }
  })
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close()
  })
  const open = () =>
    setTimeout(() => {
      if (!document.querySelector('dialog[open]')) openDialog(dialog)
    }, DELAY_MS)
  const splash = document.documentElement.classList.contains('splash')
    ? document.getElementById('splash')
    : null
  // No splash: nothing to wait for, and the 2 s start now. The splash's animations are read
  // after a frame has been drawn: style is up to date then, and reading them costs nothing
  // (during load it would force a style recalculation of the whole page).
  const afterFrame = (fn: () => void) => requestAnimationFrame(() => setTimeout(fn, 0))
  afterFrame(() =>
    Promise.all((splash?.getAnimations() ?? []).map((a) => a.finished)).then(open, open),
  )
}
