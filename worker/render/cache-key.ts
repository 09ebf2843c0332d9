import clientAssets from 'virtual:client-assets'
import type { SiteConfig } from '../config'
import { sha256Hex } from '../hash'
import { parse as parseCookies } from 'hono/utils/cookie'
import { getQueryParam } from 'hono/utils/url'
import { LANG_STORAGE_KEY } from '../../client/lib/languages'
import { chooseLanguage } from '../i18n/negotiate'
import { CONSENT_COOKIE, consentIn } from './consent'
import { FLASH_COOKIE } from './flash'

/**
 * What the edge cache keys a page by (render/edge-cache.ts): the HTML varies by path, language,
 * how the language was chosen (the selector's hint), the tracker consent, the route's own query
 * parameters, the experiments showing the visitor B (experiments/page.ts) and the deploy;
 * nothing else of an anonymous request reaches the page.
 */

/**
 * Rendered into `nonce="…"` attributes of a page meant for the cache, replaced on the way out.
 * As long as a nonce (24 characters: 16 random bytes in base64, as Hono's secureHeaders makes
 * them), so a nonce is written over it in place (render/nonce-slots.ts).
 */
export const NONCE_PLACEHOLDER = `nonce-${clientAssets.build}`.padEnd(24, '-').slice(0, 24)

/** Which path a page took: `hit`, `miss` or `bypass` (a render of its own). */
export const RENDER_HEADER = 'x-render'

/**
 * A page not rendered from D1's content as it is now, D1 not answering: `stale` (the edge's
 * last copy, past its freshness) or `snapshot` (rendered from content/snapshot.ts).
 */
export const SOURCE_HEADER = 'x-content-source'

/** An internal request that renders the page again and stores it (stale-while-revalidate). */
export const REFRESH_HEADER = 'x-render-refresh'

/** A cookie of someone's own state: the session and MFA steps (sb-*), a notice for this page. */
const isPersonalCookie = (name: string) => name.startsWith('sb-') || name === FLASH_COOKIE

const deploys = new WeakMap<SiteConfig, Promise<string>>()
const settled = new WeakMap<SiteConfig, string>()

/**
 * Identifies what the HTML was made from: this build, the Worker version in production
 * (CF_VERSION_METADATA: every deploy and every changed secret is a new one) and the settings
 * themselves, so a page never outlives the code or configuration that rendered it. Hashed once
 * per settings object (readConfig keeps one per isolate's bindings and origin).
 */
export function deployId(config: SiteConfig, version = ''): Promise<string> {
  let id = deploys.get(config)
  if (!id) {
    const text = JSON.stringify([clientAssets.build, version, config])
    id = sha256Hex(text).then((hash) => {
      const deploy = `${clientAssets.build}.${hash.slice(0, 16)}`
      settled.set(config, deploy)
      return deploy
    })
    deploys.set(config, id)
  }
  return id
}

/** The deploy id once a request of these settings has worked it out (the memory's fast answer). */
export const knownDeployId = (config: SiteConfig) => settled.get(config)

/** The URL without its query. */
export function pageOf(url: string) {
  const queryAt = url.indexOf('?')
  return queryAt === -1 ? url : url.slice(0, queryAt)
}

/** Whether this request is the edge refreshing a stale page (its analytics are not a visit). */
export const isRefreshRequest = (request: Request) => request.headers.get(REFRESH_HEADER) === '1'

/**
 * What the key is made of, read from the request itself: one derivation for the cache's
 * middleware and the isolate's memory, which answers before any middleware has run. The
 * query is read with Hono's parser and the language chosen as the i18n middleware does.
 */
export function readRequest(request: Request) {
  const url = request.url
  const page = pageOf(url)
  const param = (name: string) =>
    page.length < url.length ? (getQueryParam(url, name) as string | undefined) : undefined
  const cookie = request.headers.get('Cookie')
  const cookies: Record<string, string> = cookie ? parseCookies(cookie) : {}
  const { lang, via } = chooseLanguage(
    param('lang'),
    cookies[LANG_STORAGE_KEY],
    request.headers.get('Accept-Language') ?? undefined,
  )
  /**
   * The key of this request for a page keyed by the parameters `query` (routes.ts), by the
   * generations of the content it shows (`content`, content/generations.ts) and by the
   * experiments it shows in B (`variants`).
   */
  const consent = consentIn(cookies[CONSENT_COOKIE])
  const key = (deploy: string, query: readonly string[], content = '', variants = '') => {
    let key = `${page}?lang=${lang}&via=${via}&consent=${consent}&build=${deploy}`
    if (content) key += `&content=${content}`
    // the experiments showing this visitor B (experiments/assignments.ts variantKey)
    if (variants) key += `&b=${variants}`
    for (const name of query) {
      const value = param(name)
      if (value !== undefined) key += `&q.${name}=${encodeURIComponent(value)}`
    }
    return key
  }
  /** A cookie of someone's own state: the page is rendered for them alone. */
  const personal = Object.keys(cookies).some(isPersonalCookie)
  return { page, param, personal, lang, key, cookies, consent }
}
