/** Shows the top progress bar when the next page takes longer than a moment to arrive. */
const DELAY_MS = 150

export function enhanceNavigation() {
  const bar = document.getElementById('nav-progress')
  if (!bar) return
  let timer: ReturnType<typeof setTimeout> | undefined
  const stop = () => {
    clearTimeout(timer)
    bar.hidden = true
  }
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0) return
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[href]')
    if (!link || link.target || link.hasAttribute('download')) return
    const url = new URL(link.href)
    if (url.origin !== location.origin) return
    if (url.pathname === location.pathname && url.search === location.search && url.hash) return
    clearTimeout(timer)
    // listeners after this one may still take the click over (the booking dialog does)
    timer = setTimeout(() => (bar.hidden = event.defaultPrevented), DELAY_MS)
  })
  // Back/forward cache restores the old page as it was: hide the bar again.
  addEventListener('pageshow', stop)
}

/** Buttons that move to a section of the page (the hero's "View Our Services"). */
export function enhanceScrollButtons() {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLElement>('[data-scroll-to]')
    const target = button && document.getElementById(button.dataset.scrollTo ?? '')
    if (!target) return
    const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches
    target.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' })
    const heading = target.querySelector<HTMLElement>('h2')
    if (heading) {
      heading.tabIndex = -1
      heading.focus({ preventScroll: true })
    }
  })
}

/** A link back to the page the visitor came from (the error page's way back to a refused form). */
export const HISTORY_BACK_ATTR = 'data-history-back'

/**
 * Such a link is the page's address without JavaScript; with it, the browser's own Back when
 * that is where the visitor came from, which brings the form back as it was typed.
 */
export function enhanceBackLinks() {
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0) return
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    const link = (event.target as Element).closest<HTMLAnchorElement>(`a[${HISTORY_BACK_ATTR}]`)
    if (!link || history.length < 2 || document.referrer !== link.href) return
    event.preventDefault()
    history.back()
  })
}
