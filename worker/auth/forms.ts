import * as v from 'valibot'
import { formGuard, limitBody, sameSiteOnly } from '../middleware/form-guard'

/** What the site's sign-in forms (routes.ts, mfa.ts) share: their guards and field schemas. */

/** Sign-in forms are small: 4 KB is plenty. */
const AUTH_FORM_BYTES = 4096
/** Same-site, 4 KB, and the per-IP rate limit. */
export const authForm = formGuard(AUTH_FORM_BYTES)
/** Sign-out and the password change: same-site and 4 KB, no rate limit. */
export const guard = [sameSiteOnly(), limitBody(AUTH_FORM_BYTES)] as const

/** An e-mail address typed into a form (the service lower-cases it). */
export const formEmail = v.pipe(v.string(), v.trim(), v.email(), v.maxLength(254))

/** A six-digit code typed into a form (an authenticator app's, or an e-mailed one). */
export const sixDigits = v.pipe(v.string(), v.trim(), v.regex(/^\d{6}$/))
