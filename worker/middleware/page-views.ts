import type { MiddlewareHandler } from 'hono'
import { record } from '../analytics/record'
import type { AppEnv } from '../env'
import { isRefreshRequest, RENDER_HEADER } from '../render/cache-key'

/**
 * One data point per rendered page, written once the streamed HTML has been sent, so it never
 * holds the page back. Known pages count by path; anything else as "(not found)".
 */
export function pageViews(): MiddlewareHandler<AppEnv> {
  return async function pageViews(c, next) {
    const started = Date.now()
    await next()
    // the edge re-rendering a stale page is not a visit (render/edge-cache.ts)
    if (c.req.method !== 'GET' || !c.res.body || isRefreshRequest(c.req.raw)) return
    if (!(c.res.headers.get('Content-Type') ?? '').startsWith('text/html')) return
    const status = c.res.status
    const path = status === 404 ? '(not found)' : c.req.path
    // A copy from the edge cache is whole already: counted now, its body left untouched (a
    // stream stage of our own costs more CPU than the rest of a hit).
    if (c.res.headers.get(RENDER_HEADER) === 'hit') {
      record(c, { event: 'pageview', path, status, renderMs: Date.now() - started })
      return
    }
    const done = new TransformStream({
      flush: () => record(c, { event: 'pageview', path, status, renderMs: Date.now() - started }),
    })
    c.res = new Response(c.res.body.pipeThrough(done), c.res)
  }
}
