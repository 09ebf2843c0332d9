import type { Bindings } from '../bindings'

/**
 * The built-in service's limits: `[vars]` of wrangler.toml (README: Settings), each with its
 * default here for when it is empty or not a number. The per-IP request limits are
 * `[[ratelimits]]` bindings instead (AUTH_SIGNUP_LIMITER, AUTH_EMAIL_LIMITER, AUTH_TOKEN_LIMITER).
 */
export const LIMIT_DEFAULTS = {
  /** Seconds a failed attempt counts against its keys (sign-ins, e-mailed codes, TOTP codes). */
  AUTH_FAILURE_WINDOW: 15 * 60,
  /** Failed sign-ins for one address from one IP, then that pair is refused (429). */
  AUTH_SIGNIN_PAIR_LIMIT: 5,
  /** Failed sign-ins from one IP, whatever the addresses, then that IP is refused (429). */
  AUTH_SIGNIN_IP_LIMIT: 20,
  /** Failed sign-ins for one address from anywhere, then each sign-in for it waits a little. */
  AUTH_SIGNIN_SLOWDOWN_AFTER: 5,
  /** The longest such wait, in seconds (it starts at a quarter second and doubles). */
  AUTH_SIGNIN_MAX_DELAY: 5,
  /** Wrong e-mailed codes per address, TOTP codes per factor, nonces per user; then 429. */
  AUTH_CODE_FAILURE_LIMIT: 5,
  /** Seconds a spent refresh token still answers with its successor (GoTrue's default 10). */
  AUTH_REFRESH_REUSE_INTERVAL: 10,
  /** Seconds a session lives from its sign-in, refreshed or not (GoTrue's sessions timebox). */
  AUTH_SESSION_MAX_AGE: 30 * 24 * 3600,
} as const

export type LimitSetting = keyof typeof LIMIT_DEFAULTS

/** A limit's value: the var when it is a number of zero or more, else the default. */
export function limitOf(env: Partial<Bindings>, name: LimitSetting): number {
  const raw = (env as Record<string, unknown>)[name]
  const value =
    typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() ? Number(raw) : NaN
  return Number.isFinite(value) && value >= 0 ? value : LIMIT_DEFAULTS[name]
}

/**
 * Whether a sign-up is confirmed at once (GoTrue's mailer_autoconfirm). Off by default, as
 * GoTrue's: the sign-up answers without a session and e-mails a link that confirms the address,
 * so nobody opens an account in someone else's name. AUTH_AUTOCONFIRM = "true" turns it on.
 */
export const autoconfirm = (env: Partial<Bindings>) => env.AUTH_AUTOCONFIRM === 'true'

/**
 * Whether changing an address needs the link sent to the current address as well as the one
 * sent to the new one (GoTrue's secure email change, on by default). AUTH_SECURE_EMAIL_CHANGE =
 * "false" asks the new address alone; the current one is still told.
 */
export const secureEmailChange = (env: Partial<Bindings>) =>
  env.AUTH_SECURE_EMAIL_CHANGE !== 'false'
