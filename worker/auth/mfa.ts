import { Hono, type Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import * as v from 'valibot'
import type { AppEnv } from '../env'
import { readForm } from '../api/forms'
import { httpOnlyCookie } from '../cookies'
import { flash } from '../render/flash'
import { authForm, sixDigits } from './forms'
import { authClient } from './client'
import type { Factor, TokenSet } from '../auth-types'
import { toAccount, toAuthPage } from './redirects'
import { needsSecondStep, PENDING_COOKIE, pendingMfa, toSecondStep } from './second-step'
import { rememberSession, signedInOnly } from './session'
import { staffRole } from '../roles'

/**
 * Two-step sign-in for the site (the backend-for-frontend side of the service's /factors API):
 * the code step after the password when the account has an authenticator app, and the account
 * page's enrolment and removal of one.
 */
export const mfaRoutes = new Hono<AppEnv>()

/** The authenticator app being set up on /account: its id and otpauth URI, for ten minutes. */
const ENROL_COOKIE = 'sb-mfa-enrol'

const readJson = <T>(raw: string | undefined): T | null => {
  try {
    return raw ? (JSON.parse(raw) as T) : null
  } catch {
    return null
  }
}

/** Tokens from the service become the visitor's session, unless a second factor is due first. */
export function completeSignIn(
  c: Context<AppEnv>,
  tokens: TokenSet,
  next: string,
  notice: { title: string; description?: string },
) {
  if (needsSecondStep(tokens.user, tokens.access_token)) return toSecondStep(c, tokens, next)
  rememberSession(c, tokens)
  flash(c, notice)
  return c.redirect(next, 303)
}

/** The authenticator app being set up, if any. */
export function enrolment(c: Context<AppEnv>) {
  const e = readJson<{ id: string; uri: string }>(getCookie(c, ENROL_COOKIE))
  if (!e?.uri?.startsWith('otpauth://totp/')) return null
  return { id: e.id, uri: e.uri, secret: new URL(e.uri).searchParams.get('secret') ?? '' }
}

/** The signed-in visitor's factors from the service; null when it cannot be asked. */
export async function accountFactors(c: Context<AppEnv>): Promise<Factor[] | null> {
  if (!c.var.accessToken) return null
  // confirmed already by signedInOnly on the way here
  if (c.var.account) return c.var.account.factors ?? []
  const res = await authClient(c).user(c.var.accessToken)
  return res.ok ? (res.data.factors ?? []) : null
}

const readCode = async (c: Context<AppEnv>) =>
  (await readForm(c, v.object({ code: sixDigits })))?.code ?? null

/** Challenge then verify, as supabase-js's challengeAndVerify does; the aal2 tokens or an error code. */
async function challengeAndVerify(
  c: Context<AppEnv>,
  access: string,
  factorId: string,
  code: string,
): Promise<{ tokens: TokenSet } | { error: string }> {
  const auth = authClient(c)
  const challenge = await auth.challenge(access, factorId)
  if (!challenge.ok) return { error: challenge.code }
  const verified = await auth.verifyFactor(access, factorId, challenge.data.id, code)
  if (!verified.ok || !verified.data?.access_token)
    return { error: verified.ok ? 'unavailable' : verified.code }
  return { tokens: verified.data }
}

/** GoTrue's answers for a session that has ended, or a token it no longer takes. */
const ENDED_SESSION = ['no_authorization', 'session_not_found', 'bad_jwt']

const codeError = (error: string) =>
  error === 'mfa_verification_failed' || error === 'validation_failed' ? 'invalid_code' : error

/** The sign-in's second step: the six-digit code from the authenticator app. */
mfaRoutes.post('/mfa', ...authForm, async (c) => {
  const pending = pendingMfa(c)
  if (!pending) return toAuthPage(c, undefined, { error: 'mfa_expired' })
  const code = await readCode(c)
  if (!code) return toAuthPage(c, 'mfa', { error: 'invalid_code' })
  const result = await challengeAndVerify(c, pending.access_token, pending.factor_id, code)
  if ('error' in result) {
    // the password session behind the step has ended (or the service forgot it): start over
    if (ENDED_SESSION.includes(result.error)) {
      deleteCookie(c, PENDING_COOKIE, { path: '/auth' })
      return toAuthPage(c, undefined, { error: 'mfa_expired' })
    }
    return toAuthPage(c, 'mfa', { error: codeError(result.error) })
  }
  deleteCookie(c, PENDING_COOKIE, { path: '/auth' })
  rememberSession(c, result.tokens)
  flash(c, { title: c.var.t('auth.signed_in_title'), description: pending.email })
  return c.redirect(pending.next, 303)
})

const FactorName = v.object({
  friendly_name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(60))),
})

/** Starts setting up an authenticator app: the account page then shows its QR code. */
mfaRoutes.post('/factors', ...authForm, signedInOnly, async (c) => {
  const name = (await readForm(c, FactorName))?.friendly_name || c.var.t('auth.mfa_default_name')
  const res = await authClient(c).enrolTotp(c.var.accessToken!, name, c.var.t('meta.site_name'))
  if (!res.ok || !res.data?.id || !res.data.totp)
    return toAccount(c, res.ok ? 'unavailable' : res.code)
  setCookie(
    c,
    ENROL_COOKIE,
    JSON.stringify({ id: res.data.id, uri: res.data.totp.uri }),
    httpOnlyCookie(c, '/', 600),
  )
  return c.redirect('/account#mfa', 303)
})

/** Confirms the app with its first code: the factor is verified and the session aal2. */
mfaRoutes.post('/factors/verify', ...authForm, signedInOnly, async (c) => {
  const enrolling = enrolment(c)
  if (!enrolling) return toAccount(c, 'mfa_expired', 'mfa')
  const code = await readCode(c)
  if (!code) return toAccount(c, 'invalid_code', 'mfa')
  const result = await challengeAndVerify(c, c.var.accessToken!, enrolling.id, code)
  if ('error' in result) return toAccount(c, codeError(result.error), 'mfa')
  deleteCookie(c, ENROL_COOKIE, { path: '/' })
  rememberSession(c, result.tokens)
  flash(c, { title: c.var.t('auth.mfa_enabled') })
  // a staff member (a new one, from an invitation): the desk opens now, with this second factor
  return c.redirect(staffRole(result.tokens.user?.app_metadata?.role) ? '/desk' : '/account', 303)
})

const FactorId = v.object({ factor_id: v.pipe(v.string(), v.uuid()) })

/** Removes a factor (or abandons one being set up). */
mfaRoutes.post('/factors/remove', ...authForm, signedInOnly, async (c) => {
  const input = await readForm(c, FactorId)
  if (!input) return toAccount(c, 'unavailable')
  const res = await authClient(c).unenrol(c.var.accessToken!, input.factor_id)
  if (!res.ok && res.status !== 404) return toAccount(c, res.code, 'mfa')
  if (enrolment(c)?.id === input.factor_id) deleteCookie(c, ENROL_COOKIE, { path: '/' })
  else flash(c, { title: c.var.t('auth.mfa_removed') })
  return c.redirect('/account', 303)
})
