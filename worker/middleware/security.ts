import type { Context, MiddlewareHandler } from 'hono'
import { NONCE, secureHeaders } from 'hono/secure-headers'
import type { AppEnv } from '../env'

function bookingOrigin(c: Context<AppEnv>) {
  try {
    return c.env.BOOKING_URL ? new URL(c.env.BOOKING_URL).origin : ''
  } catch {
    return ''
  }
}

/**
 * Security headers for every response. Scripts and styles run only from our origin or with
 * the per-request nonce that the renderer puts on its own tags: no 'unsafe-inline'.
 */
export function security(): MiddlewareHandler<AppEnv> {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", NONCE],
      styleSrc: ["'self'", NONCE],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      // the scheduling dialog frames BOOKING_URL when one is configured
      frameSrc: ["'self'", bookingOrigin],
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
}
