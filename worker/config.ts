import type { Bindings } from './bindings'

/** The agency's time zone (BOOKING_TIMEZONE): its calendar, its desk, its schedule fields. */
export const agencyTimeZone = (env: Partial<Bindings>) => env.BOOKING_TIMEZONE || 'Europe/London'

/** Settings the pages read, with the local defaults of wrangler.toml filled in. */
export interface SiteConfig {
  siteUrl: string
  email: string
  phone: string
  whatsapp: string
  bookingUrl: string
  social: { instagram: string; facebook: string; twitter: string; linkedin: string; tiktok: string }
  fiverrUrl: string
  /** Ad and analytics trackers; loaded only when set and the visitor agreed. */
  trackers: { metaPixelId: string; gaMeasurementId: string }
  /** The agency's time zone (BOOKING_TIMEZONE): the zone the desk's times are typed and shown in. */
  timeZone: string
}

export const hasTrackers = (config: SiteConfig) =>
  Boolean(config.trackers.metaPixelId || config.trackers.gaMeasurementId)

// Every request reads the settings, and they change only with the Worker's bindings and the
// origin (SITE_URL unset): each isolate keeps them per bindings object and origin, for a few
// origins (the Host header is the visitor's to choose). Nothing changes a SiteConfig.
const MAX_ORIGINS = 8
const known = new WeakMap<object, Map<string, SiteConfig>>()
const kept = new WeakSet<SiteConfig>()

/** Whether readConfig keeps these settings for later requests, so that what is made of them may be kept too. */
export const isKept = (config: SiteConfig) => kept.has(config)

/** npm start's address: the site's origin locally when SITE_URL is not set. */
const LOCAL_SITE_URL = 'http://127.0.0.1:8787'

/**
 * The site's origin for an absolute link: SITE_URL (wrangler.toml) whenever it is set; else
 * `seen`, the origin a request came to (a page, or an e-mail written in that request), and
 * outside any request (queue, cron) the local address `npm start` serves.
 */
export const siteOrigin = (env: Partial<Bindings>, seen?: string) =>
  (env.SITE_URL || seen || LOCAL_SITE_URL).replace(/\/$/, '')

/** The settings for work outside a request (queue, cron): its links go to `siteOrigin`. */
export function siteConfig(env: Partial<Bindings>, seen?: string) {
  // a deployed site without its address would link e-mails and events to the local one
  if (!env.SITE_URL && env.ENVIRONMENT === 'production' && !seen)
    console.error('SITE_URL is not set: links made outside a request name', LOCAL_SITE_URL)
  return readConfig(env, siteOrigin(env, seen))
}

export function readConfig(env: Partial<Bindings>, requestUrl: string): SiteConfig {
  // the URL up to its path, a key without parsing the URL
  const end = requestUrl.indexOf('/', requestUrl.indexOf('//') + 2)
  const key = end === -1 ? requestUrl : requestUrl.slice(0, end)
  let byOrigin = known.get(env)
  if (!byOrigin) known.set(env, (byOrigin = new Map()))
  let config = byOrigin.get(key)
  if (!config) {
    config = settingsOf(env, new URL(requestUrl).origin)
    if (byOrigin.size < MAX_ORIGINS) {
      byOrigin.set(key, config)
      kept.add(config)
    }
  }
  return config
}

function settingsOf(env: Partial<Bindings>, origin: string): SiteConfig {
  return {
    siteUrl: siteOrigin(env, origin),
    email: env.AGENCY_EMAIL || 'hello@growthagency.example',
    phone: env.AGENCY_PHONE || '+44 20 7946 0958',
    whatsapp: (env.WHATSAPP_NUMBER || '447700900123').replace(/\D/g, ''),
    bookingUrl: env.BOOKING_URL || '',
    social: {
      instagram: env.SOCIAL_INSTAGRAM || 'https://www.instagram.com/',
      facebook: env.SOCIAL_FACEBOOK || 'https://www.facebook.com/',
      twitter: env.SOCIAL_TWITTER || 'https://x.com/',
      linkedin: env.SOCIAL_LINKEDIN || 'https://www.linkedin.com/',
      tiktok: env.SOCIAL_TIKTOK || 'https://www.tiktok.com/',
    },
    fiverrUrl: env.FIVERR_URL || 'https://www.fiverr.com/',
    trackers: {
      // only well-formed IDs reach the page (they end up in script URLs)
      metaPixelId: /^\d{5,20}$/.test(env.META_PIXEL_ID ?? '') ? env.META_PIXEL_ID! : '',
      gaMeasurementId: /^G-[A-Z0-9]{4,16}$/.test(env.GA_MEASUREMENT_ID ?? '')
        ? env.GA_MEASUREMENT_ID!
        : '',
    },
    timeZone: agencyTimeZone(env),
  }
}

/**
 * The auth provider: its URL (empty = the built-in one at /auth/v1) and the issuer and audience
 * its tokens carry, which the provider signs and the pages check.
 */
export function authSettings(env: Partial<Bindings>, siteUrl: string) {
  const url = env.AUTH_URL?.replace(/\/$/, '') ?? ''
  return {
    url,
    issuer: env.AUTH_ISSUER || url || `${siteUrl}/auth/v1`,
    audience: env.AUTH_AUDIENCE || 'authenticated',
  }
}
