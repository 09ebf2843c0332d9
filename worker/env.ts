import type { Lang } from '../client/lib/languages'
import type { Translator } from './i18n/translator'
import type { SiteConfig } from './config'

/** Bindings and vars of wrangler.toml (README lists each). */
export interface Bindings {
  DB: D1Database
  ASSETS?: Fetcher
  /** Per-IP limit on lead submissions ([[ratelimits]] in wrangler.toml). */
  LEAD_LIMITER?: RateLimit
  /** Per-IP limit on conversion events (/api/events). */
  EVENT_LIMITER?: RateLimit
  /** Workers Analytics Engine dataset of page views and conversions. */
  ANALYTICS?: AnalyticsEngineDataset
  ENVIRONMENT: string
  SITE_URL: string
  AGENCY_EMAIL: string
  AGENCY_PHONE: string
  WHATSAPP_NUMBER: string
  SOCIAL_INSTAGRAM: string
  SOCIAL_FACEBOOK: string
  SOCIAL_TWITTER: string
  SOCIAL_LINKEDIN: string
  SOCIAL_TIKTOK: string
  FIVERR_URL: string
  BOOKING_URL: string
  BOOKING_TIMEZONE: string
  BOOKING_WEEKDAYS: string
  BOOKING_HOURS: string
  BOOKING_MIN_NOTICE_HOURS: string
  BOOKING_DAYS_AHEAD: string
  AUTH_URL: string
  META_PIXEL_ID: string
  /** Secrets of the built-in auth service: private EC P-256 JWKs with a kid (README). */
  AUTH_SIGNING_KEY?: string
  AUTH_PREVIOUS_SIGNING_KEY?: string
  AUTH_ISSUER?: string
  /** The hosted service's anon key, sent as `apikey` (AUTH_URL mode). */
  AUTH_API_KEY?: string
  AUTH_AUDIENCE?: string
  GA_MEASUREMENT_ID: string
}

export interface AppEnv {
  Bindings: Bindings
  Variables: {
    lang: Lang
    t: Translator
    config: SiteConfig
    secureHeadersNonce?: string
    /** The signed-in visitor, from a verified access token (worker/auth/session.ts). */
    user?: { id: string; email: string }
    /** That visitor's access token: the cookie's, or the one refreshed for this request. */
    accessToken?: string
    signedIn?: boolean
    /** The page is not for search engines (the route table's `indexable: false`). */
    noindex?: boolean
  }
}
