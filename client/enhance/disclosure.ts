/**
 * Menus are <details> so they work without JavaScript. This adds what a menu button is
 * expected to do on top: aria-expanded on the toggle, Escape closes and returns focus, a click
 * elsewhere closes, and opening one menu closes its siblings.
 */
export function enhanceDisclosures() {
  const menus = () => [...document.querySelectorAll<HTMLDetailsElement>('details[data-menu]')]
  // The toggle event comes a task later; state the new value at once.
  const setOpen = (d: HTMLDetailsElement, open: boolean) => {
    d.open = open
    d.querySelector('summary')?.setAttribute('aria-expanded', String(open))
  }

  for (const d of menus()) {
    setOpen(d, d.open)
    // The summary's click toggles `open` after the event; announce the coming state now.
    d.querySelector('summary')?.addEventListener('click', (e) =>
      (e.currentTarget as Element).setAttribute('aria-expanded', String(!d.open)),
    )
    d.addEventListener('toggle', () => {
      setOpen(d, d.open)
      if (d.open)
        for (const other of menus()) if (other !== d && !other.contains(d)) setOpen(other, false)
    })
  }
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return
    const open = menus().filter((d) => d.open)
    const innermost = open.find((d) => d.contains(document.activeElement)) ?? open.at(-1)
    if (!innermost) return
    setOpen(innermost, false)
    innermost.querySelector('summary')?.focus()
  })
  document.addEventListener('click', (event) => {
    for (const d of menus()) if (d.open && !d.contains(event.target as Node)) setOpen(d, false)
  })
}
