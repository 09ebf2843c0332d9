import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import {
  deployId,
  isRefreshRequest,
  NONCE_PLACEHOLDER,
  readRequest,
  REFRESH_HEADER,
  RENDER_HEADER,
  SOURCE_HEADER,
} from './cache-key'
import { databaseDown } from '../db/outage'
import { forget, recalled, remember, willAnswer } from './edge-memory'
import { currentGenerations, generationKey } from '../content/generations'
import type { ContentTag } from '../content/kinds'
import { copyOf, nonceOutput, withNonceJoined, type Copy } from './nonce-slots'

/**
 * The edge keeps what it rendered for anonymous visitors (Workers Cache API, one copy per data
 * centre) and serves it again without React. The HTML varies by path, language, how the
 * language was chosen (the selector's hint), the tracker consent and the deploy; nothing else
 * of the request reaches an anonymous page, so that is the whole key. Whoever carries a cookie
 * of their own (the sb-* session cookies, a flash notice) gets a render of their own.
 *
 * The stored copy holds NONCE_PLACEHOLDER where a nonce belongs; every response, hit or miss,
 * has this response's nonce written in, so the Content-Security-Policy stays nonce-based and no
 * two responses share a nonce (nonce-slots.ts): a render streams out with the nonce written
 * over each placeholder as the renderer encodes it, the page as rendered kept on the side; a
 * hit, whole in memory, is one copy of the page with the nonce written into its slots.
 *
 * Copies in the isolate's memory are answered before the app runs (edge-memory.ts); this
 * middleware answers the rest: copies from the Cache API, stale copies, `?lang=` choices, misses.
 */

/** Fresh for this long; after that a hit is served and the page rendered again in the background. */
export const FRESH_SECONDS = 300
/** Kept at most this long (a stale page is still served while its successor renders). */
const KEEP_SECONDS = 86_400
/** All cached pages carry this tag: `npm run purge -- --remote` purges by it. */
const CACHE_TAG = 'site-pages'
const STORED_AT = 'x-stored-at'

/** The copy for the Cache API: the page's body and type only (no cookies, no per-response headers). */
const storable = (copy: Copy, shows: readonly ContentTag[]) =>
  new Response(copy.page, {
    headers: {
      'Content-Type': copy.type,
      'Cache-Control': `public, max-age=${KEEP_SECONDS}`,
      'Cache-Tag': [CACHE_TAG, ...shows.map((kind) => `content-${kind}`)].join(','),
      [STORED_AT]: String(copy.storedAt),
    },
  })

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

/** Keys this isolate is already refreshing: one background render per stale page at a time. */
const refreshing = new Set<string>()

/**
 * Renders the page again in the background through the worker itself (ctx.exports), as a new
 * request with only what the key holds, so the stale copy is replaced for the next visitor.
 */
function refresh(c: Context<AppEnv>, key: string) {
  const headers = new Headers({ [REFRESH_HEADER]: '1' })
  // the visitor's cookies as they came: none of someone's own gets this far (never cached)
  const cookies = c.req.header('Cookie')
  if (cookies) headers.set('Cookie', cookies)
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
 * A copy as this response: its age said, the nonce written in. A stale one is refreshed in the
 * background, unless D1 is not answering (`stale`: nothing to refresh from; the response says
 * where it came from).
 */
function answerCopy(c: Context<AppEnv>, key: string, copy: Copy, nonce: string, stale: boolean) {
  const age = (Date.now() - copy.storedAt) / 1000
  if (stale) c.header(SOURCE_HEADER, 'stale')
  else if (age > FRESH_SECONDS) {
    // served this once more; the next visitor gets the refreshed one
    forget(key)
    refresh(c, key)
  }
  c.header(RENDER_HEADER, 'hit')
  c.header('Age', String(Math.floor(age)))
  return c.body(withNonceJoined(copy, nonce), 200, { 'Content-Type': copy.type })
}

/**
 * A page route's cache: `query` names the query parameters that change its HTML (other
 * parameters, e.g. campaign tags, share the page's copy), `shows` the kinds of content it
 * shows (their generations key it). Sets `x-render`.
 */
export function edgeCache({
  query = [],
  shows = [],
}: { query?: readonly string[]; shows?: readonly ContentTag[] } = {}): MiddlewareHandler<AppEnv> {
  return async function edgeCache(c, next) {
    // (no Cache API where the worker runs outside workerd, as in the bench's Node renders)
    const cache = (globalThis as { caches?: CacheStorage }).caches?.default
    // a bypass is marked by the renderer, as every page outside the cache is
    if (!cache || c.req.method !== 'GET') return next()
    const { page, personal, key: keyFor } = readRequest(c.req.raw)
    // someone's own state (signed in, a notice to show): a render of their own
    if (c.var.user || personal) return next()
    const nonce = c.get('secureHeadersNonce') ?? ''
    const content = shows.length ? generationKey(await currentGenerations(c.env.DB), shows) : ''
    const key = keyFor(
      await deployId(c.var.config, c.env.CF_VERSION_METADATA?.id),
      query,
      content,
      c.var.variants,
    )
    willAnswer(c.req.raw, { key, page, query, shows, nonce })
    // D1 not answering (the generations unread): the content's last copy at any age
    const down = shows.length > 0 && databaseDown()
    if (!isRefreshRequest(c.req.raw)) {
      let copy = recalled(key)
      if (!copy) {
        copy = await fetched(cache, key)
        if (copy) remember(key, copy)
      }
      if (!copy && down) copy = recalled(key, { stale: true })
      if (copy) return answerCopy(c, key, copy, nonce, down)
    }

    // A miss: render with the placeholder, keep one copy, send the other with the nonce.
    const output = nonceOutput(nonce)
    c.set('secureHeadersNonce', NONCE_PLACEHOLDER)
    c.set('pageOutput', output)
    await next()
    const res = c.res
    // stale-if-error: a render that failed is answered by the last copy, of any age
    const kept = res.status >= 500 && recalled(key, { stale: true })
    if (kept) {
      c.res = answerCopy(c, key, kept, nonce, true)
      // (Hono keeps the failed answer's headers on the one that replaces it: not these)
      for (const name of ['Retry-After', 'Cache-Control', 'Content-Length'])
        c.res.headers.delete(name)
      return
    }
    const type = res.headers.get('Content-Type') ?? ''
    const html = res.body !== null && type.startsWith('text/html')
    // (a page from the content's snapshot is not kept: it is not what D1 holds)
    const cacheable =
      html &&
      res.status === 200 &&
      !c.var.contentSource &&
      !(res.headers.get('Cache-Control') ?? '').includes('no-store')
    res.headers.set(RENDER_HEADER, cacheable ? 'miss' : 'bypass')
    const keep = (copy: Copy) => {
      remember(key, copy)
      c.executionCtx.waitUntil(
        cache
          .put(key, storable(copy, shows))
          .catch((err: unknown) => console.error('cache put failed', err)),
      )
    }
    // kept once the page has streamed out, as it was rendered
    if (output.used) {
      if (cacheable) output.whole((page, slots) => keep(copyOf(page, type, Date.now(), slots)))
      return
    }
    // HTML our renderer did not write (React's own build, as the worker tests run it, takes no
    // `output`; none of the built worker's pages): read whole, then the nonce written in
    if (!html) return
    const copy = copyOf(new Uint8Array(await res.arrayBuffer()), type, Date.now())
    if (cacheable) keep(copy)
    c.res = new Response(withNonceJoined(copy, nonce), res)
  }
}
