import clientAssets from 'virtual:client-assets'
import type { SiteConfig } from '../config'
import { sha256Hex } from '../hash'
import type { LangSource } from '../i18n/negotiate'
import type { Consent } from './consent'
import { FLASH_COOKIE } from './flash'

/**
 * What the edge cache keys a page by (render/edge-cache.ts): the HTML varies by path, language,
 * how the language was chosen (the selector's hint), the tracker consent, the route's own query
 * parameters and the deploy; nothing else of an anonymous request reaches the page.
 */

/** Rendered into `nonce="…"` attributes of a page meant for the cache, replaced on the way out. */
export const NONCE_PLACEHOLDER = `nonce-${clientAssets.build}`

/** Which path a page took: `hit`, `miss` or `bypass` (a render of its own). */
export const RENDER_HEADER = 'x-render'

/** An internal request that renders the page again and stores it (stale-while-revalidate). */
export const REFRESH_HEADER = 'x-render-refresh'

/** A cookie of someone's own state: the session and MFA steps (sb-*), a notice for this page. */
export const isPersonalCookie = (name: string) => name.startsWith('sb-') || name === FLASH_COOKIE

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

export interface KeyParts {
  /** The request's URL without its query. */
  page: string
  lang: string
  via: LangSource
  consent: Consent
  deploy: string
  /** The route's own query parameters (routes.ts `cache.query`), absent ones undefined. */
  params: readonly (readonly [string, string | undefined])[]
}

/** One string per variant of the HTML, never the visitor's cookies. */
export function cacheKey({ page, lang, via, consent, deploy, params }: KeyParts) {
  let key = `${page}?lang=${lang}&via=${via}&consent=${consent}&build=${deploy}`
  for (const [name, value] of params)
    if (value !== undefined) key += `&q.${name}=${encodeURIComponent(value)}`
  return key
}

/** The URL without its query. */
export function pageOf(url: string) {
  const queryAt = url.indexOf('?')
  return queryAt === -1 ? url : url.slice(0, queryAt)
}
