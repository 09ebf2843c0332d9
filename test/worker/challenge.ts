/**
 * The Turnstile challenge as the worker tests answer it: Cloudflare's test secret (the tests'
 * stand-in, vitest.worker.config.ts) passes any token, so a test posting as a browser with
 * JavaScript sends this one. Scripted failures are tokens of their own (`standin-case:invalid`,
 * scripts/lib/turnstile-standin.mjs).
 */

/** The token Cloudflare's test site keys hand out. */
export const DUMMY_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX'

/** The field the widget adds to a form the browser posts (a no-JavaScript post lacks it). */
export { TOKEN_FIELD } from '../../worker/challenge/turnstile'

const isPlainObject = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body)

/**
 * An island's JSON body with its token (`challengeToken`), unless the body names one itself.
 * Anything but a plain object (an array, null, a string: the malformed bodies of the validation
 * tests) is left as it is.
 */
export function withToken<T>(body: T, token = DUMMY_TOKEN): T {
  return isPlainObject(body) ? { challengeToken: token, ...body } : body
}

/** An auth service body with its captcha, as supabase-js sends `options.captchaToken`. */
export function withCaptcha<T>(body: T, token = DUMMY_TOKEN): T {
  return isPlainObject(body) ? { gotrue_meta_security: { captcha_token: token }, ...body } : body
}

/** The lead endpoints that e-mail the address typed: their JSON carries a token. */
const CHALLENGED_API = new Set([
  '/api/email-signup',
  '/api/newsletter',
  '/api/guide-requests',
  '/api/bookings',
])

/** The auth service's endpoints that e-mail an address: their JSON carries a captcha. */
const CAPTCHA_API = new Set(['/signup', '/otp', '/recover', '/resend'])

const pathOf = (path: string) => new URL(path, 'https://example.com').pathname

/** A body for `path` as the site's island posts it: with a token where the endpoint wants one. */
export const withTokenFor = <T>(path: string, body: T): T =>
  CHALLENGED_API.has(pathOf(path)) ? withToken(body) : body

/**
 * A body for the auth service's `path` (with or without `/auth/v1`) as supabase-js posts it
 * with `options.captchaToken`: with a captcha where the endpoint wants one.
 */
export const withCaptchaFor = <T>(path: string, body: T): T =>
  CAPTCHA_API.has(pathOf(path).replace(/^\/auth\/v1(?=\/)/, '')) ? withCaptcha(body) : body
