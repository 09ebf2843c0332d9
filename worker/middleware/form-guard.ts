import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { Bindings } from '../bindings'
import { formResult } from '../components/form-result'
import type { AppEnv } from '../env'
import { clientKey } from './client-key'

export const MAX_BODY_BYTES = 16 * 1024

/**
 * What every form endpoint needs before it reads a body: same-site only (a page of another
 * site cannot post a visitor's browser here), at most 16 KB (or less), and a per-IP rate limit.
 */
export function formGuard(maxBytes = MAX_BODY_BYTES) {
  return [sameSiteOnly(), limitBody(maxBytes), rateLimit('LEAD_LIMITER')] as const
}

export function limitBody(maxSize: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({ maxSize, onError: (c) => c.json({ error: c.var.t('errors.too_large') }, 413) })
}

export function sameSiteOnly(): MiddlewareHandler<AppEnv> {
  return async function sameSiteOnly(c, next) {
    const origin = c.req.header('Origin')
    const site = c.req.header('Sec-Fetch-Site')
    const allowed = new Set([new URL(c.req.url).origin, c.var.config.siteUrl])
    const ours =
      site !== 'cross-site' &&
      (origin === undefined ||
        allowed.has(origin) ||
        // A page that sends no referrer (the pages of e-mailed links, Referrer-Policy:
        // no-referrer) posts its forms with Origin "null"; so do sandboxed frames anywhere. The
        // browser's Sec-Fetch-Site tells them apart; without it, "null" is refused.
        (origin === 'null' && site === 'same-origin'))
    if (!ours) return c.json({ error: c.var.t('errors.cross_site') }, 403)
    await next()
  }
}

/**
 * Per client, with one of the [[ratelimits]] bindings of wrangler.toml: an IPv4 address, or an
 * IPv6 /64 (`clientKey`). Over the limit, 429: JSON, or a page for a form posted without
 * JavaScript.
 */
export function rateLimit(
  binding: 'LEAD_LIMITER' | 'EVENT_LIMITER' | 'VITALS_LIMITER',
): MiddlewareHandler<AppEnv> {
  return async function rateLimit(c, next) {
    const limiter = (c.env as Bindings)[binding]
    if (limiter) {
      const { success } = await limiter.limit({ key: clientKey(c) })
      if (!success) {
        c.header('Retry-After', '60')
        const error = c.var.t('errors.rate_limited')
        return c.req.header('Content-Type')?.startsWith('application/x-www-form-urlencoded')
          ? formResult(c, 429, c.var.t('notices.error_title'), error)
          : c.json({ error }, 429)
      }
    }
    await next()
  }
}
