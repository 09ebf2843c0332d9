// The local stand-in's `api.js` (scripts/lib/turnstile-standin.mjs serves it): `window.turnstile`
// as Cloudflare's widget script defines it, the part the site uses, behaving as Cloudflare's test
// site keys do. No iframe and no style attributes (a CSP with nonces refuses them): its few styles
// are set through `element.style` (CSSOM), which CSP allows.
;(() => {
  if (window.turnstile) return
  const query = new URL(document.currentScript?.src ?? location.href).searchParams
  const DUMMY_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX'
  const PASS = ['1x00000000000000000000AA', '1x00000000000000000000BB']
  const FAIL = ['2x00000000000000000000AB', '2x00000000000000000000BB']
  const INTERACTIVE = '3x00000000000000000000FF'
  const SOLVE_MS = 200
  const TOKEN_LIFETIME_MS = 300_000
  const widgets = new Map()
  let count = 0

  /** An element with its attributes and its styles (CSSOM, not a style attribute). */
  const make = (tag, attributes = {}, style = '') => {
    const el = document.createElement(tag)
    for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value)
    el.style.cssText = style
    return el
  }
  const call = (fn, ...args) => (typeof fn === 'function' ? fn(...args) : undefined)
  const elementOf = (target) =>
    typeof target === 'string' ? document.querySelector(target) : target
  /** A widget by its id, by its container (element or selector), or the first one rendered. */
  const find = (idOrContainer) => {
    if (idOrContainer === undefined) return widgets.values().next().value
    if (widgets.has(idOrContainer)) return widgets.get(idOrContainer)
    const el = elementOf(idOrContainer)
    return [...widgets.values()].find((w) => w.container === el)
  }
  const say = (w, text) => (w.status.textContent = text)
  // `hidden` alone would lose to the box's own `display`
  const show = (w, visible) => {
    w.box.hidden = !visible
    w.box.style.display = visible ? 'flex' : 'none'
  }
  const clear = (w) => {
    w.timers.forEach(clearTimeout)
    w.timers = []
    w.token = undefined
    w.expired = false
    w.running = false
    w.interacted = false
    w.button?.remove()
    w.button = undefined
    if (w.input) w.input.value = ''
  }
  const later = (w, ms, fn) => w.timers.push(setTimeout(fn, ms))

  function succeed(w) {
    const scripted = window.__TURNSTILE_STANDIN__?.token
    w.token = typeof scripted === 'string' ? scripted : DUMMY_TOKEN
    w.running = false
    if (w.input) w.input.value = w.token
    say(w, 'Success')
    // invisible while it runs only: what is left is the hidden input
    if (w.params.appearance === 'execute' && !w.interacted) show(w, false)
    call(w.params.callback, w.token)
    later(w, TOKEN_LIFETIME_MS, () => {
      clear(w)
      w.expired = true
      say(w, 'Expired: verify again')
      call(w.params['expired-callback'])
    })
  }

  function fail(w, code) {
    w.running = false
    say(w, 'Verification failed')
    if (typeof w.params['error-callback'] === 'function') w.params['error-callback'](code)
    else console.warn(`[Turnstile stand-in] error ${code}`)
  }

  function interact(w) {
    w.interacted = true
    call(w.params['before-interactive-callback'])
    show(w, true)
    say(w, 'Confirm that you are human')
    w.button = make(
      'button',
      { type: 'button' },
      'font: inherit; padding: 0.5rem 0.75rem; border: 2px solid #1f2937; border-radius: 4px;' +
        'background: #fff; color: #111827; cursor: pointer',
    )
    w.button.textContent = 'Verify you are human'
    // a focus ring of its own: the page's styles may take the browser's away
    w.button.addEventListener('focus', () => (w.button.style.outline = '3px solid #1d4ed8'))
    w.button.addEventListener('blur', () => (w.button.style.outline = ''))
    w.button.addEventListener('click', () => {
      w.button.remove()
      w.button = undefined
      say(w, 'Verifying…')
      call(w.params['after-interactive-callback'])
      later(w, SOLVE_MS, () => succeed(w))
    })
    w.box.append(w.button)
  }

  function run(w) {
    if (w.running) return
    clear(w)
    w.running = true
    const key = w.params.sitekey
    if (w.params.appearance === 'execute') show(w, true)
    say(w, 'Verifying…')
    if (PASS.includes(key)) later(w, SOLVE_MS, () => succeed(w))
    else if (FAIL.includes(key)) later(w, SOLVE_MS, () => fail(w, '600010'))
    else if (key === INTERACTIVE) later(w, SOLVE_MS, () => interact(w))
    else later(w, 0, () => fail(w, '110100'))
  }

  function render(container, params = {}) {
    const el = elementOf(container)
    if (!el) return console.warn('[Turnstile stand-in] no container', container)
    const id = `cf-chl-widget-${++count}`
    params = { execution: 'render', appearance: 'always', ...params }
    const box = make(
      'div',
      { id, role: 'group', 'aria-label': 'Security check (local Turnstile stand-in)' },
      // Cloudflare's widget is 300 × 65 px
      'flex-wrap: wrap; align-items: center; gap: 0.75rem; box-sizing: border-box;' +
        'max-width: 300px; min-height: 65px; padding: 0.5rem 0.75rem; border: 1px solid #6b7280;' +
        'border-radius: 4px; background: #fafafa; color: #1f2937; font: 14px/1.4 system-ui, sans-serif',
    )
    const status = make('span', { role: 'status' })
    box.append(status)
    const w = { id, container: el, params, box, status, timers: [] }
    show(w, params.appearance === 'always')
    el.append(box)
    if (params['response-field'] !== false) {
      const name = params['response-field-name'] ?? 'cf-turnstile-response'
      w.input = make('input', { type: 'hidden', name, id: `${id}_response` })
      el.append(w.input)
    }
    widgets.set(id, w)
    if (params.execution !== 'execute') run(w)
    return id
  }

  /** The widgets of the page's `.cf-turnstile` elements (implicit rendering), from their data-*. */
  function renderImplicit() {
    const global = (name) => (name ? window[name] : undefined)
    for (const el of document.querySelectorAll('.cf-turnstile[data-sitekey]')) {
      if (find(el)) continue
      const d = el.dataset
      const params = { sitekey: d.sitekey, action: d.action, cData: d.cdata }
      for (const [param, attr] of Object.entries({
        callback: 'callback',
        'error-callback': 'errorCallback',
        'expired-callback': 'expiredCallback',
        'before-interactive-callback': 'beforeInteractiveCallback',
        'after-interactive-callback': 'afterInteractiveCallback',
      }))
        params[param] = global(d[attr])
      if (d.execution) params.execution = d.execution
      if (d.appearance) params.appearance = d.appearance
      if (d.responseField) params['response-field'] = d.responseField !== 'false'
      if (d.responseFieldName) params['response-field-name'] = d.responseFieldName
      render(el, params)
    }
  }

  window.turnstile = {
    render,
    // a container not rendered yet is rendered with the params given
    execute(target, params) {
      let w = find(target)
      if (!w && params) w = widgets.get(render(target, { ...params, execution: 'execute' }))
      if (w) run(w)
    },
    reset(id) {
      const w = find(id)
      if (!w) return
      clear(w)
      say(w, '')
      if (w.params.appearance !== 'always') show(w, false)
      if (w.params.execution !== 'execute') run(w)
    },
    remove(id) {
      const w = find(id)
      if (!w) return
      clear(w)
      w.box.remove()
      w.input?.remove()
      widgets.delete(w.id)
    },
    getResponse: (id) => find(id)?.token,
    isExpired: (id) => find(id)?.expired ?? false,
    ready: (cb) => setTimeout(cb),
  }

  const start = () => {
    if (query.get('render') !== 'explicit') renderImplicit()
    const onload = query.get('onload')
    if (onload) call(window[onload])
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
  else setTimeout(start)
})()
