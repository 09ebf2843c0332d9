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
 * has this response's nonce written in, so the Content-Security-Policy stays nonce-based and no
 * two responses share a nonce. A render streams through an HTMLRewriter that sets every `nonce`
 * attribute; a hit is whole in memory, cut at the placeholders once, and joined around this
 * response's nonce: the same bytes as the rewriter's for a fifth of the cost of a hit (bench:
 * home-page throughput 0.62× → 0.74–0.84× of /robots.txt without the rewriter). The placeholder
 * is new with every build and only the renderer writes it, into nonce attributes: no page
 * content can carry it.
 */

/** Rendered into `nonce="…"` attributes of a page meant for the cache, replaced on the way out. */
export const NONCE_PLACEHOLDER = `nonce-${clientAssets.build}`

/** Fresh for this long; after that a hit is served and the page rendered again in the background. */
export const FRESH_SECONDS = 300
/** Kept at most this long (a stale page is still served while its successor renders). */
const KEEP_SECONDS = 86_400
/** All cached pages carry this tag: `npm run purge -- --remote` purges by it. */
const CACHE_TAG = 'site-pages'
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
function deployId(c: Context<AppEnv>): Promise<string> {
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

/** A cookie of someone's own state: the session and MFA steps (sb-*), a notice for this page. */
const isPersonalCookie = (name: string) => name.startsWith('sb-') || name === FLASH_COOKIE

/** A request that carries someone's own state. */
const personal = (c: Context<AppEnv>) =>
  Boolean(c.var.user) || Object.keys(getCookie(c)).some(isPersonalCookie)

/**
 * The cache key: one URL per variant of the HTML (see above), never the visitor's cookies.
 * Built as a string: it is made on every request, and the memory tier needs nothing more.
 */
async function cacheKey(c: Context<AppEnv>, query: readonly string[] = []) {
  const url = c.req.url
  const queryAt = url.indexOf('?')
  let key =
    (queryAt === -1 ? url : url.slice(0, queryAt)) +
    `?lang=${c.var.lang}&via=${c.var.langSource}&consent=${consentOf(c)}&build=${await deployId(c)}`
  for (const name of query) {
    const value = c.req.query(name)
    if (value !== undefined) key += `&q.${name}=${encodeURIComponent(value)}`
  }
  return key
}

/** Writes `nonce` into every element that carries one, streaming (a render on its way out). */
function withNonce(body: ReadableStream, headers: HeadersInit, nonce: string) {
  const rewriter = new HTMLRewriter().on('[nonce]', {
    element(el) {
      el.setAttribute('nonce', nonce)
    },
  })
  return rewriter.transform(new Response(body, { headers })).body!
}

/** A page as kept: its bytes (nonce placeholders in), its type, when it was rendered. */
interface Copy {
  bytes: Uint8Array
  /** The bytes cut at each placeholder. */
  parts: Uint8Array[]
  type: string
  storedAt: number
}

const encoder = new TextEncoder()

function copyOf(bytes: Uint8Array, type: string, storedAt: number): Copy {
  const parts = new TextDecoder()
    .decode(bytes)
    .split(NONCE_PLACEHOLDER)
    .map((part) => encoder.encode(part))
  return { bytes, parts, type, storedAt }
}

/** The copy's page with this response's nonce where the placeholders were. */
function withNonceJoined(copy: Copy, nonce: string) {
  const between = encoder.encode(nonce)
  const out = new Uint8Array(
    copy.parts.reduce((n, part) => n + part.byteLength, 0) +
      between.byteLength * (copy.parts.length - 1),
  )
  let at = 0
  copy.parts.forEach((part, i) => {
    if (i > 0) {
      out.set(between, at)
      at += between.byteLength
    }
    out.set(part, at)
    at += part.byteLength
  })
  return out
}

/** The copy for the Cache API: the page's body and type only (no cookies, no per-response headers). */
const storable = (copy: Copy) =>
  new Response(copy.bytes, {
    headers: {
      'Content-Type': copy.type,
      'Cache-Control': `public, max-age=${KEEP_SECONDS}`,
      'Cache-Tag': CACHE_TAG,
      [STORED_AT]: String(copy.storedAt),
    },
  })

/**
 * The isolate's own copies of its busiest pages, in front of the Cache API: a hit from memory
 * skips the cache lookup (a round trip, and the dearest part of a hit). Kept for a minute at
 * most, so a purge reaches them soon after it reaches the data centre's cache, and a few
 * megabytes at most (an isolate has 128 MB), least recently used out first.
 */
const MEMORY_SECONDS = 60
const MEMORY_BYTES = 4 * 1024 * 1024
const memory = new Map<string, Copy>()
let memoryBytes = 0

/** A copy's bytes and its parts */
const weight = (copy: Copy) => 2 * copy.bytes.byteLength

function remember(key: string, copy: Copy) {
  forget(key)
  memory.set(key, copy)
  memoryBytes += weight(copy)
  for (const [oldest, old] of memory) {
    if (memoryBytes <= MEMORY_BYTES) break
    memory.delete(oldest)
    memoryBytes -= weight(old)
  }
}

function forget(key: string) {
  const old = memory.get(key)
  if (!old) return
  memory.delete(key)
  memoryBytes -= weight(old)
}

function recalled(key: string): Copy | undefined {
  const copy = memory.get(key)
  if (!copy) return undefined
  forget(key)
  if (Date.now() - copy.storedAt > MEMORY_SECONDS * 1000) return undefined
  remember(key, copy) // most recently used now
  return copy
}

/** The copy in the data centre's cache, read whole (it becomes the isolate's copy too). */
async function fetched(cache: Cache, key: string): Promise<Copy | undefined> {
  const hit = await cache.match(key)
  if (!hit) return undefined
  return copyOf(
    new Uint8Array(await hit.arrayBuffer()),
    hit.headers.get('Content-Type') ?? 'text/html; charset=UTF-8',
    Number(hit.headers.get(STORED_AT) ?? 0),
  )
}

/** Whether this request is the edge refreshing a stale page (its analytics are not a visit). */
export const isRefresh = (c: Context<AppEnv>) => c.req.header(REFRESH_HEADER) === '1'

/** Keys this isolate is already refreshing: one background render per stale page at a time. */
const refreshing = new Set<string>()

/**
 * Renders the page again in the background through the worker itself (ctx.exports), as a new
 * request with only what the key holds, so the stale copy is replaced for the next visitor.
 */
function refresh(c: Context<AppEnv>, key: string) {
  const headers = new Headers({ [REFRESH_HEADER]: '1' })
  const cookies = Object.entries(getCookie(c))
    .filter(([name]) => !isPersonalCookie(name))
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
  if (cookies.length) headers.set('Cookie', cookies.join('; '))
  const accept = c.req.header('Accept-Language')
  if (accept) headers.set('Accept-Language', accept)
  const self = c.executionCtx.exports?.default as Fetcher | undefined
  if (!self || refreshing.has(key)) return
  refreshing.add(key)
  c.executionCtx.waitUntil(
    self
      .fetch(new Request(c.req.url, { headers }))
      .then((res) => res.arrayBuffer())
      .catch((err: unknown) => console.error('page refresh failed', err))
      .finally(() => refreshing.delete(key)),
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
    // a bypass is marked by the renderer, as every page outside the cache is
    if (!cache || c.req.method !== 'GET' || personal(c)) return next()
    const nonce = c.get('secureHeadersNonce') ?? ''
    const key = await cacheKey(c, query)
    if (!isRefresh(c)) {
      let copy = recalled(key)
      if (!copy) {
        copy = await fetched(cache, key)
        if (copy) remember(key, copy)
      }
      if (copy) {
        const age = (Date.now() - copy.storedAt) / 1000
        if (age > FRESH_SECONDS) {
          // served this once more; the next visitor gets the refreshed one
          forget(key)
          refresh(c, key)
        }
        c.header(RENDER_HEADER, 'hit')
        c.header('Age', String(Math.floor(age)))
        return c.body(withNonceJoined(copy, nonce), 200, {
          'Content-Type': copy.type,
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
      const type = res.headers.get('Content-Type')!
      c.executionCtx.waitUntil(
        new Response(kept)
          .arrayBuffer()
          .then((buffer) => {
            const copy = copyOf(new Uint8Array(buffer), type, Date.now())
            remember(key, copy)
            return cache.put(key, storable(copy))
          })
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
