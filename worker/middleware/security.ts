import type { Context, MiddlewareHandler } from 'hono'
import { NONCE, secureHeaders } from 'hono/secure-headers'
import type { AppEnv } from '../env'
import { challengeOrigin } from '../challenge/turnstile'
import { secretRouteOf } from '../routes'

// Hosts of Google Analytics and the Meta Pixel, allowed only when their IDs are configured.
const GA = {
  script: 'https://www.googletagmanager.com',
  connect:
    'https://*.google-analytics.com https://*.analytics.google.com https://*.googletagmanager.com',
  img: 'https://*.google-analytics.com https://*.googletagmanager.com',
}
const META = {
  script: 'https://connect.facebook.net',
  connect: 'https://www.facebook.com https://connect.facebook.net',
  img: 'https://www.facebook.com',
}

/** Never on the page of an e-mailed secret (routes.ts `secretLink`): no tracker loads there. */
function trackerHosts(kind: 'script' | 'connect' | 'img') {
  return (c: Context<AppEnv>) =>
    secretRouteOf(c.req.path)
      ? ''
      : [c.env.GA_MEASUREMENT_ID ? GA[kind] : '', c.env.META_PIXEL_ID ? META[kind] : '']
          .filter(Boolean)
          .join(' ')
}

function bookingOrigin(c: Context<AppEnv>) {
  try {
    return c.env.BOOKING_URL ? new URL(c.env.BOOKING_URL).origin : ''
  } catch {
    return ''
  }
}

/**
 * The form endpoints whose answer to a post without a token is the form again, which runs the
 * challenge once the page's scripts do (components/form-again.tsx, components/not-booked.tsx).
 */
const ANSWERED_WITH_FORM = new Set([
  '/api/bookings',
  '/api/newsletter',
  '/api/email-signup',
  '/api/guide-requests',
])

/**
 * Turnstile's origin (its script and its frame), on the pages whose forms e-mail a typed
 * address: the public pages, whose footer has the newsletter box. Not the desk, nor the APIs,
 * but for the answers of the form endpoints that give the form back (ANSWERED_WITH_FORM).
 */
function challengeHost(c: Context<AppEnv>) {
  const path = c.req.path
  if (ANSWERED_WITH_FORM.has(path)) return challengeOrigin(c.env)
  if (path.startsWith('/desk') || path.startsWith('/api/') || path.startsWith('/auth/v1')) return ''
  return challengeOrigin(c.env)
}

/**
 * Security headers for every response. Scripts and styles run only from our origin or with
 * the per-request nonce that the renderer puts on its own tags: no 'unsafe-inline'. The page
 * of an e-mailed secret (routes.ts `secretLink`) sends no Referer at all: not to another
 * origin, nor to the site's next page, whose trackers would report it as their referrer.
 */
export function security(): MiddlewareHandler<AppEnv> {
  const headers = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", NONCE, trackerHosts('script'), challengeHost],
      styleSrc: ["'self'", NONCE],
      imgSrc: ["'self'", 'data:', trackerHosts('img')],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", trackerHosts('connect')],
      // the scheduling dialog frames BOOKING_URL when one is configured
      frameSrc: ["'self'", bookingOrigin, challengeHost],
      formAction: ["'self'"],
      baseUri: ["'none'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
    },
    strictTransportSecurity: 'max-age=63072000; includeSubDomains; preload',
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
  })
  return async function security(c, next) {
    await headers(c, next)
    if (secretRouteOf(c.req.path)) c.res.headers.set('Referrer-Policy', 'no-referrer')
  }
}
