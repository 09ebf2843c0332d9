import { notify, NOTICE_EVENT, type Notice } from '../lib/notices'

const VISIBLE_MS = 6000

/**
 * Renders notices into the live regions the server put on every page: one visible at a time,
 * dismissible, gone after a few seconds (longer while hovered or focused).
 */
export function enhanceNotices() {
  let timer: ReturnType<typeof setTimeout> | undefined
  const hosts = () => [...document.querySelectorAll<HTMLElement>('.notice-host')]
  // The open modal dialog's own regions, else the page's.
  const activeHost = () =>
    document.querySelector<HTMLElement>('dialog[open] .notice-host') ??
    hosts().find((h) => !h.closest('dialog'))

  const clear = () => {
    clearTimeout(timer)
    for (const region of document.querySelectorAll('.notice-host > [role]'))
      region.replaceChildren()
  }
  const arm = () => {
    clearTimeout(timer)
    timer = setTimeout(clear, VISIBLE_MS)
  }

  // a notice the server carried over from the previous page (signed in, signed out)
  const flash = document.body.dataset.flash
  if (flash) queueMicrotask(() => notify(JSON.parse(flash) as Notice))

  document.addEventListener(NOTICE_EVENT, (event) => {
    const { title, description, variant = 'default' } = (event as CustomEvent<Notice>).detail
    const host = activeHost()
    if (!host) return
    clear()
    const card = document.createElement('div')
    card.className = `notice notice-${variant}`
    card.dataset.variant = variant
    const text = document.createElement('div')
    const strong = document.createElement('p')
    strong.className = 'notice-title'
    strong.textContent = title
    text.appendChild(strong)
    if (description) {
      const p = document.createElement('p')
      p.className = 'notice-text'
      p.textContent = description
      text.appendChild(p)
    }
    const close = document.createElement('button')
    close.type = 'button'
    close.className = 'notice-close'
    close.setAttribute('aria-label', host.dataset.dismissLabel ?? 'Dismiss')
    close.textContent = '×'
    close.addEventListener('click', clear)
    card.appendChild(text)
    card.appendChild(close)
    card.addEventListener('mouseenter', () => clearTimeout(timer))
    card.addEventListener('mouseleave', arm)
    card.addEventListener('focusin', () => clearTimeout(timer))
    card.addEventListener('focusout', arm)
    host
      .querySelector(variant === 'destructive' ? '[role=alert]' : '[role=status]')!
      .appendChild(card)
    arm()
  })
}
