/**
 * Cloudflare Turnstile in the browser: the widget's script is fetched the first time a visitor
 * sends a form that e-mails the address typed in it (never at page load), and each send gets a
 * fresh token (a token is spent by one check). The widget runs invisibly and shows itself only
 * when Cloudflare wants an interaction (`appearance: 'interaction-only'`).
 */

/** Island props of a form with a challenge (serialisable); null: the site runs none. */
export type ChallengeConfig = { siteKey: string; scriptUrl: string } | null

interface TurnstileApi {
  render(container: HTMLElement, params: Record<string, unknown>): string | undefined
  execute(widget: HTMLElement | string): void
  reset(widget?: string): void
}

declare global {
  interface Window {
    turnstile?: TurnstileApi
  }
}

const ONLOAD = '__turnstileReady'
let loading: Promise<TurnstileApi> | null = null

function loadScript(scriptUrl: string): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile)
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const url = new URL(scriptUrl, location.href)
    url.searchParams.set('render', 'explicit')
    url.searchParams.set('onload', ONLOAD)
    ;(window as unknown as Record<string, () => void>)[ONLOAD] = () => resolve(window.turnstile!)
    const script = document.createElement('script')
    script.src = url.href
    script.async = true
    script.onerror = () => {
      loading = null
      script.remove()
      reject(new Error('challenge script did not load'))
    }
    document.head.append(script)
  })
  return loading
}

const widgets = new WeakMap<
  HTMLElement,
  { id: string; pending?: (token: string | Error) => void }
>()

/** How long a visitor may take over an interactive challenge before the send is given up. */
const TOKEN_TIMEOUT_MS = 120_000

/**
 * A fresh token for one send of the form whose widget lives in `container`, made for `action`
 * (the server checks the two match). Rejects when the script cannot load or the widget fails.
 */
export async function challengeToken(
  config: NonNullable<ChallengeConfig>,
  action: string,
  container: HTMLElement,
): Promise<string> {
  const turnstile = await loadScript(config.scriptUrl)
  return new Promise<string>((resolve, reject) => {
    const settle = (answer: string | Error) => {
      clearTimeout(timer)
      const widget = widgets.get(container)
      if (widget) widget.pending = undefined
      if (answer instanceof Error) reject(answer)
      else resolve(answer)
    }
    const timer = setTimeout(() => settle(new Error('challenge timed out')), TOKEN_TIMEOUT_MS)
    let widget = widgets.get(container)
    if (!widget) {
      const id = turnstile.render(container, {
        sitekey: config.siteKey,
        action,
        execution: 'execute',
        appearance: 'interaction-only',
        language: document.documentElement.lang || 'auto',
        // the token goes in the request body, not in a field of the form
        'response-field': false,
        callback: (token: string) => widgets.get(container)?.pending?.(token),
        'error-callback': () => {
          widgets.get(container)?.pending?.(new Error('challenge failed'))
          // Turnstile retries on its own unless told the error was handled
          return true
        },
        'expired-callback': () => turnstile.reset(widgets.get(container)?.id),
      })
      if (!id) return settle(new Error('challenge did not render'))
      widget = { id }
      widgets.set(container, widget)
    } else {
      turnstile.reset(widget.id)
    }
    widget.pending = settle
    turnstile.execute(container)
  })
}
