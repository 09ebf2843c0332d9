import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import { verifyChallenge, type ChallengeAction } from '../challenge/turnstile'
import { hasServiceRole } from './admin'
import { authError } from './gotrue'

/**
 * GoTrue's captcha check (internal/api/middleware.go, verifyCaptcha) before the endpoints that
 * e-mail an address: the Turnstile token comes in the JSON body as
 * `gotrue_meta_security.captcha_token` (supabase-js `options.captchaToken`). No token, or one
 * siteverify refuses: 400 `captcha_failed`, "captcha protection: request disallowed (<codes>)".
 * No usable answer from siteverify: 500 "captcha verification process failed", as GoTrue.
 * The site's forms make their tokens for `action`, which is checked too (GoTrue does not). As
 * GoTrue, a request with the service role skips it: the site's own e-mail to a signed-in
 * account (the code that deletes it) is not a typed address.
 */
export function requireCaptcha(action: ChallengeAction): MiddlewareHandler<AppEnv> {
  return async function captcha(c, next) {
    if (await hasServiceRole(c)) return next()
    const json = (await c.req.json().catch(() => undefined)) as
      | { gotrue_meta_security?: { captcha_token?: unknown } }
      | undefined
    const token = json?.gotrue_meta_security?.captcha_token
    const result = await verifyChallenge(c, typeof token === 'string' ? token : undefined, action)
    if (result.ok) return next()
    if (result.reason === 'unavailable' || result.reason === 'unconfigured')
      return authError(c, 500, 'unexpected_failure', 'captcha verification process failed')
    const codes = result.reason === 'missing' ? ['no captcha_token found'] : result.errorCodes
    return authError(
      c,
      400,
      'captcha_failed',
      `captcha protection: request disallowed (${codes.join(', ')})`,
    )
  }
}
