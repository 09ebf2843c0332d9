import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { decodeJwt } from 'jose'
import { httpOnlyCookie } from '../cookies'
import type { AppEnv } from '../env'
import type { AuthUser } from '../auth-types'
import { toAuthPage } from './redirects'

/**
 * The second step of signing in, for an account with an authenticator app: tokens of the first
 * step (aal1) wait here, never as the visitor's session, until the code is given (mfa.ts).
 */

/** The tokens waiting for the code; only /auth pages receive it. */
export const PENDING_COOKIE = 'sb-mfa-pending'

export interface Pending {
  access_token: string
  refresh_token: string
  factor_id: string
  /** where to go once the code is given: one of our own paths */
  next: string
  email: string
}

/** The account's verified authenticator app, if it has one. */
export const verifiedFactor = (user: Pick<AuthUser, 'factors'>) =>
  user.factors?.find((f) => f.status === 'verified' && f.factor_type === 'totp')

/** Whether a token of this account still lacks the second step its account has. */
export const needsSecondStep = (user: Pick<AuthUser, 'factors'>, accessToken: string) =>
  Boolean(verifiedFactor(user)) && decodeJwt(accessToken).aal !== 'aal2'

/** Keeps the tokens for the code step (five minutes) and sends the visitor to it. */
export function toSecondStep(
  c: Context<AppEnv>,
  tokens: { access_token: string; refresh_token: string; user: AuthUser },
  next: string,
) {
  const pending: Pending = {
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    factor_id: verifiedFactor(tokens.user)!.id,
    next,
    email: tokens.user.email,
  }
  setCookie(c, PENDING_COOKIE, JSON.stringify(pending), httpOnlyCookie(c, '/auth', 300))
  return toAuthPage(c, 'mfa')
}

/** The tokens waiting for their code, if any (the /auth page then asks for it). */
export function pendingMfa(c: Context<AppEnv>): Pending | null {
  try {
    const raw = getCookie(c, PENDING_COOKIE)
    return raw ? (JSON.parse(raw) as Pending) : null
  } catch {
    return null
  }
}
