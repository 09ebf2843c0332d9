/**
 * Menus are <details> so they work without JavaScript. This adds what a menu button is
 * expected to do on top: Escape closes and returns focus, a click elsewhere closes, and
 * opening one menu closes its siblings.
 */
export function enhanceDisclosures() {
  const menus = () => [...document.querySelectorAll<HTMLDetailsElement>('details[data-menu]')]
  const sync = (d: HTMLDetailsElement) =>
    d.querySelector('summary')?.setAttribute('aria-expanded', String(d.open))

  for (const d of menus()) {
    sync(d)
    d.addEventListener('toggle', () => {
      sync(d)
      if (d.open) for (const other of menus()) if (other !== d && !other.contains(d)) other.open = false
    })
  }
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return
    const open = menus().filter((d) => d.open)
    const innermost = open.find((d) => d.contains(document.activeElement)) ?? open.at(-1)
    if (!innermost) return
    innermost.open = false
    innermost.querySelector('summary')?.focus()
  })
  document.addEventListener('click', (event) => {
    for (const d of menus()) if (d.open && !d.contains(event.target as Node)) d.open = false
  })
}
