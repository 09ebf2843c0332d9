import type { Context, MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import clientAssets from 'virtual:client-assets'
import type { SiteConfig } from '../config'
import type { AppEnv } from '../env'
import { sha256Hex } from '../hash'
import { consentOf } from './consent'
import { FLASH_COOKIE } from './flash'

/**
 * The edge keeps what it rendered for anonymous visitors (Workers Cache API, one copy per data
 * centre) and serves it again without React. The HTML varies by path, language, how the
 * language was chosen (the selector's hint), the tracker consent and the deploy; nothing else
 * of the request reaches an anonymous page, so that is the whole key. Whoever carries a cookie
 * of their own (the sb-* session cookies, a flash notice) gets a render of their own.
 *
 * The stored copy holds NONCE_PLACEHOLDER where a nonce belongs; every response, hit or miss,
 * has this response's nonce written in by a streaming HTMLRewriter, so the
 * Content-Security-Policy stays nonce-based and no two responses share a nonce.
 */

/** Rendered into `nonce="…"` attributes of a page meant for the cache, replaced on the way out. */
export const NONCE_PLACEHOLDER = 'edge-cache-nonce'

/** Fresh for this long; after that a hit is served and the page rendered again in the background. */
export const FRESH_SECONDS = 300
/** Kept at most this long (a stale page is still served while its successor renders). */
const KEEP_SECONDS = 86_400
/** All cached pages carry this tag: `npm run purge -- --remote` purges by it. */
export const CACHE_TAG = 'site-pages'
const STORED_AT = 'x-stored-at'
/** An internal request that renders the page again and stores it (stale-while-revalidate). */
const REFRESH_HEADER = 'x-render-refresh'

export const RENDER_HEADER = 'x-render'

const deploys = new WeakMap<SiteConfig, Promise<string>>()

/**
 * Identifies what the HTML was made from: this build, the Worker version in production
 * (CF_VERSION_METADATA: every deploy and every changed secret is a new one) and the settings
 * themselves, so a page never outlives the code or configuration that rendered it. Hashed once
 * per settings object (readConfig keeps one per isolate's bindings and origin).
 */
export function deployId(c: Context<AppEnv>): Promise<string> {
  const config = c.var.config
  let id = deploys.get(config)
  if (!id) {
    const version = c.env.CF_VERSION_METADATA?.id ?? ''
    const text = JSON.stringify([clientAssets.build, version, config])
    id = sha256Hex(text).then((hash) => `${clientAssets.build}.${hash.slice(0, 16)}`)
    deploys.set(config, id)
  }
  return id
}

/** A request that carries someone's own state: session, MFA steps, a notice for this page. */
function personal(c: Context<AppEnv>) {
  if (c.var.user) return true
  const cookies = getCookie(c)
  return Object.keys(cookies).some((name) => name.startsWith('sb-') || name === FLASH_COOKIE)
}

/** The cache key: one URL per variant of the HTML (see above), never the visitor's cookies. */
export async function cacheKey(c: Context<AppEnv>, query: readonly string[] = []) {
  const url = new URL(c.req.url)
  const key = new URL(url.origin + url.pathname)
  key.searchParams.set('lang', c.var.lang)
  key.searchParams.set('via', c.var.langSource)
  key.searchParams.set('consent', consentOf(c))
  key.searchParams.set('build', await deployId(c))
  for (const name of query) {
    const value = url.searchParams.get(name)
    if (value !== null) key.searchParams.set(`q.${name}`, value)
  }
  return new Request(key.toString(), { method: 'GET' })
}

/** Writes `nonce` into every element that carries one, streaming. */
function withNonce(body: ReadableStream, headers: HeadersInit, nonce: string) {
  const rewriter = new HTMLRewriter().on('[nonce]', {
    element(el) {
      el.setAttribute('nonce', nonce)
    },
  })
  return rewriter.transform(new Response(body, { headers })).body!
}

/** The stored copy: the page's body and type only (no cookies, no per-response headers). */
function storable(body: ReadableStream, res: Response) {
  return new Response(body, {
    headers: {
      'Content-Type': res.headers.get('Content-Type') ?? 'text/html; charset=UTF-8',
      'Cache-Control': `public, max-age=${KEEP_SECONDS}`,
      'Cache-Tag': CACHE_TAG,
      [STORED_AT]: String(Date.now()),
    },
  })
}

const ageOf = (res: Response) => (Date.now() - Number(res.headers.get(STORED_AT) ?? 0)) / 1000

/** Whether this request is the edge refreshing a stale page (its analytics are not a visit). */
export const isRefresh = (c: Context<AppEnv>) => c.req.header(REFRESH_HEADER) === '1'

/** Keys this isolate is already refreshing: one background render per stale page at a time. */
const refreshing = new Set<string>()

/**
 * Renders the page again in the background through the worker itself (ctx.exports), as a new
 * request with only what the key holds, so the stale copy is replaced for the next visitor.
 */
function refresh(c: Context<AppEnv>, key: Request) {
  const headers = new Headers({ [REFRESH_HEADER]: '1' })
  const cookies = Object.entries(getCookie(c))
    .filter(([name]) => !name.startsWith('sb-') && name !== FLASH_COOKIE)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
  if (cookies.length) headers.set('Cookie', cookies.join('; '))
  const accept = c.req.header('Accept-Language')
  if (accept) headers.set('Accept-Language', accept)
  const self = c.executionCtx.exports?.default as Fetcher | undefined
  if (!self || refreshing.has(key.url)) return
  refreshing.add(key.url)
  c.executionCtx.waitUntil(
    self
      .fetch(new Request(c.req.url, { headers }))
      .then((res) => res.arrayBuffer())
      .catch((err: unknown) => console.error('page refresh failed', err))
      .finally(() => refreshing.delete(key.url)),
  )
}

/**
 * A page route's cache: `query` names the query parameters that change its HTML (other
 * parameters, e.g. campaign tags, share the page's copy). Sets `x-render`.
 */
export function edgeCache(query: readonly string[] = []): MiddlewareHandler<AppEnv> {
  return async function edgeCache(c, next) {
    // (no Cache API where the worker runs outside workerd, as in the bench's Node renders)
    const cache = (globalThis as { caches?: CacheStorage }).caches?.default
    if (!cache || c.req.method !== 'GET' || personal(c)) {
      await next()
      c.header(RENDER_HEADER, 'bypass')
      return
    }
    const nonce = c.get('secureHeadersNonce') ?? ''
    const key = await cacheKey(c, query)
    if (!isRefresh(c)) {
      const hit = await cache.match(key)
      if (hit?.body) {
        const age = ageOf(hit)
        if (age > FRESH_SECONDS) refresh(c, key)
        const type = hit.headers.get('Content-Type')!
        c.header(RENDER_HEADER, 'hit')
        c.header('Age', String(Math.floor(age)))
        return c.body(withNonce(hit.body, { 'Content-Type': type }, nonce), 200, {
          'Content-Type': type,
        })
      }
    }

    // A miss: render with the placeholder, keep one copy, send the other with the nonce.
    c.set('secureHeadersNonce', NONCE_PLACEHOLDER)
    await next()
    const res = c.res
    const cacheable =
      res.status === 200 &&
      res.body &&
      (res.headers.get('Content-Type') ?? '').startsWith('text/html') &&
      !(res.headers.get('Cache-Control') ?? '').includes('no-store')
    let body = res.body
    if (cacheable && body) {
      const [kept, sent] = body.tee()
      c.executionCtx.waitUntil(
        cache
          .put(key, storable(kept, res))
          .catch((err: unknown) => console.error('cache put failed', err)),
      )
      body = sent
    }
    const headers = new Headers(res.headers)
    headers.set(RENDER_HEADER, cacheable ? 'miss' : 'bypass')
    c.res = new Response(body && withNonce(body, headers, nonce), {
      status: res.status,
      headers,
    })
  }
}
