import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import { ErrorPage, errorTexts } from './error'
import { titled } from '../render/context'
import { renderer } from '../layout/document'

/** Seconds a 503's visitor (or crawler) is asked to wait before trying again. */
export const RETRY_AFTER_SECONDS = 60

/**
 * A request of a person, as opposed to a script's: it asks for HTML, or it is a form the
 * browser posted itself (the islands' own requests ask for JSON). The auth service's API is
 * never one: it answers as GoTrue does.
 */
export function wantsPage(c: Context<AppEnv>) {
  if (c.req.path === '/auth/v1' || c.req.path.startsWith('/auth/v1/')) return false
  const accept = c.req.header('Accept') ?? ''
  if (accept.includes('application/json')) return false
  if (accept.includes('text/html')) return true
  return (
    c.req.method === 'POST' &&
    /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(
      c.req.header('Content-Type') ?? '',
    )
  )
}

/** Where a refused form came from (a page of this site), to go back to it. */
function formPage(c: Context<AppEnv>) {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return undefined
  const referer = c.req.header('Referer')
  if (!referer) return undefined
  try {
    const from = new URL(referer)
    return from.origin === new URL(c.req.url).origin ? from.pathname + from.search : undefined
  } catch {
    return undefined
  }
}

/**
 * The site's error page for `status`, in the visitor's language, with the site's header and
 * footer (pages/error.tsx); 503 with Retry-After. It renders whether or not the request got as
 * far as the renderer (a body refused by middleware/request-size.ts did not); a render that
 * fails itself leaves a short page of its own.
 */
export async function errorPage(c: Context<AppEnv>, status: number): Promise<Response> {
  let res: Response | undefined
  try {
    const { t } = c.var
    const texts = errorTexts(status)
    await renderer()(c, async () => {
      c.status(status as 400)
      c.res = await c.render(<ErrorPage status={status} back={formPage(c)} />, {
        title: titled(c, t(texts.title)),
        description: t(texts.text),
        noindex: true,
        // a mistyped address is no page of the site's (middleware/page-views.ts)
        vitalsPath: status === 404 ? '(not found)' : '(error)',
      })
    })
    res = c.res
  } catch (err) {
    console.error('error page unrendered', err)
    const t = c.var.t as AppEnv['Variables']['t'] | undefined
    const text = t?.(errorTexts(status).text) ?? 'Something went wrong. Please try again.'
    res = new Response(
      `<!doctype html><meta charset="utf-8"><title>${status}</title><p>${text}</p><p><a href="/">⌂</a></p>`,
      { status, headers: { 'Content-Type': 'text/html; charset=UTF-8' } },
    )
  }
  // (a refusal's length, kept by Hono on the response that replaces it, is not the page's)
  res.headers.delete('Content-Length')
  res.headers.set('Cache-Control', 'no-store')
  if (status === 503) res.headers.set('Retry-After', String(RETRY_AFTER_SECONDS))
  return res
}

/**
 * After every route: a person's request answered 4xx or 5xx by anything but a page (a refusal
 * in JSON meant for the islands, a body too large for a form) gets the error page instead,
 * with the same status. Pages of their own (a form shown again with what was typed, the
 * not-found page) stay as they are.
 */
export function errorPages(): MiddlewareHandler<AppEnv> {
  return async function errorPages(c, next) {
    await next()
    const { status } = c.res
    if (status < 400 || c.req.method === 'HEAD' || !wantsPage(c)) return
    if ((c.res.headers.get('Content-Type') ?? '').startsWith('text/html')) return
    // (the refusal's headers stay on the page, its cookies and Retry-After among them)
    c.res = await errorPage(c, status)
  }
}
