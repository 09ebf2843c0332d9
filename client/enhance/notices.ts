import {
  notify,
  NOTICE_EVENT,
  toast,
  TOAST_EVENT,
  TOAST_LIMIT,
  TOAST_MS,
  type Notice,
} from '../lib/notices'

const VISIBLE_MS = 6000

/** A notice card: title, text and a close button; hovering or focusing it pauses its timer. */
function card(
  { title, description, variant = 'default' }: Notice,
  dismissLabel: string,
  timer: { close: () => void; pause: () => void; resume: () => void },
) {
  const el = document.createElement('div')
  el.className = `notice notice-${variant}`
  el.dataset.variant = variant
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
  close.setAttribute('aria-label', dismissLabel)
  close.textContent = '×'
  close.addEventListener('click', timer.close)
  el.appendChild(text)
  el.appendChild(close)
  el.addEventListener('mouseenter', timer.pause)
  el.addEventListener('mouseleave', timer.resume)
  el.addEventListener('focusin', timer.pause)
  el.addEventListener('focusout', timer.resume)
  return el
}

const regionOf = (parent: Element, variant: Notice['variant']) =>
  parent.querySelector(
    variant === 'destructive' ? ':scope > [role=alert]' : ':scope > [role=status]',
  )!

/**
 * Renders notices into the live regions the server put on every page. The app store: one
 * visible at a time, dismissible, gone after a few seconds (longer while hovered or focused).
 * The toasts: up to three stacked at the top, 4 s each by default.
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
    const notice = (event as CustomEvent<Notice>).detail
    const host = activeHost()
    if (!host) return
    clear()
    const el = card(notice, host.dataset.dismissLabel ?? 'Dismiss', {
      close: clear,
      pause: () => clearTimeout(timer),
      resume: arm,
    })
    regionOf(host, notice.variant).appendChild(el)
    arm()
  })

  document.addEventListener(TOAST_EVENT, (event) => {
    const { duration = TOAST_MS, ...notice } = (
      event as CustomEvent<Notice & { duration?: number }>
    ).detail
    const stack = activeHost()?.querySelector<HTMLElement>('.toasts')
    if (!stack) return
    let left = duration
    let started = Date.now()
    let timeout: ReturnType<typeof setTimeout> | undefined
    const close = () => {
      clearTimeout(timeout)
      el.remove()
    }
    const resume = () => {
      started = Date.now()
      timeout = setTimeout(close, left)
    }
    const pause = () => {
      clearTimeout(timeout)
      left = Math.max(1000, left - (Date.now() - started))
    }
    const el = card(notice, stack.closest<HTMLElement>('.notice-host')!.dataset.dismissLabel!, {
      close,
      pause,
      resume,
    })
    el.classList.add('toast')
    // the oldest gives way: never more than three
    const shown = [...stack.querySelectorAll<HTMLElement>('.toast')].sort(
      (a, b) => Number(a.dataset.at) - Number(b.dataset.at),
    )
    for (const old of shown.slice(0, Math.max(0, shown.length - TOAST_LIMIT + 1)))
      old.dispatchEvent(new Event('toast:close'))
    el.dataset.at = String(performance.now())
    el.addEventListener('toast:close', close)
    regionOf(stack, notice.variant).appendChild(el)
    resume()
  })

  // The connection, as the browser sees it: news in the toasts, whatever the visitor is doing.
  const texts = document.querySelector<HTMLElement>('.toasts')?.dataset
  if (texts) {
    addEventListener('offline', () =>
      toast({
        title: texts.offlineTitle!,
        description: texts.offlineText,
        variant: 'destructive',
      }),
    )
    addEventListener('online', () =>
      toast({ title: texts.onlineTitle!, description: texts.onlineText }),
    )
  }
}
