const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"])'

/**
 * Opens a modal <dialog> the way every dialog here should behave: Tab and Shift+Tab cycle
 * inside it (the browser would let focus leave for its own toolbar), Escape closes it (native),
 * and focus returns to what opened it.
 */
export function openDialog(
  dialog: HTMLDialogElement,
  opener: Element | null = document.activeElement,
) {
  if (dialog.open) return
  dialog.showModal()
  dialog.addEventListener(
    'close',
    () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus()
    },
    { once: true },
  )
}

export function enhanceDialogs() {
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return
    const dialog = document.querySelector<HTMLDialogElement>('dialog[open]:modal')
    if (!dialog) return
    const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (el) => el.getClientRects().length > 0 && !el.closest('[aria-hidden=true]'),
    )
    if (!items.length) return
    const first = items[0]
    const last = items[items.length - 1]
    const active = document.activeElement
    if (!dialog.contains(active)) {
      event.preventDefault()
      first.focus()
    } else if (event.shiftKey && active === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && active === last) {
      event.preventDefault()
      first.focus()
    }
  })
}
