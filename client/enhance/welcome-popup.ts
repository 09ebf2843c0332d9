import { openDialog } from './dialogs'

/** Browser flag: the visitor has seen (and closed) the welcome popup. */
export const WELCOME_SEEN_KEY = 'welcome-popup-seen'
const DELAY_MS = 2000

/** Opens the welcome popup 2 s after load unless this browser has closed it before (SPEC §4). */
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
  setTimeout(() => {
    if (!document.querySelector('dialog[open]')) openDialog(dialog)
  }, DELAY_MS)
}
