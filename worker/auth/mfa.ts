import { Hono, type Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { decodeJwt } from 'jose'
import * as v from 'valibot'
import type { AppEnv } from '../env'
import { readForm } from '../api/forms'
import { httpOnlyCookie } from '../cookies'
import { flash } from '../render/flash'
import { authForm, sixDigits } from './forms'
import { callAuth, rememberSession, signedInOnly, type TokenSet } from './session'

/**
 * Two-step sign-in for the site (the backend-for-frontend side of the service's /factors API):
 * the code step after the password when the account has an authenticator app, and the account
 * page's enrolment and removal of one.
 */
export const mfaRoutes = new Hono<AppEnv>()

export interface Factor {
  id: string
  friendly_name?: string
  factor_type: string
  status: 'verified' | 'unverified'
}

export type ServiceTokens = TokenSet & { user: TokenSet['user'] & { factors?: Factor[] } }

/** The tokens of a password sign-in waiting for the code; only /auth pages receive it. */
const PENDING_COOKIE = 'sb-mfa-pending'
/** The authenticator app being set up on /account: its id and otpauth URI, for ten minutes. */
const ENROL_COOKIE = 'sb-mfa-enrol'

interface Pending {
  access_token: string
  refresh_token: string
  factor_id: string
  next: string
  email: string
}

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
  tokens: ServiceTokens,
  next: string,
  notice: { title: string; description?: string },
) {
  const factor = tokens.user.factors?.find(
    (f) => f.status === 'verified' && f.factor_type === 'totp',
  )
  if (factor && decodeJwt(tokens.access_token).aal !== 'aal2') {
    const pending: Pending = {
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      factor_id: factor.id,
      next,
      email: tokens.user.email,
    }
    setCookie(c, PENDING_COOKIE, JSON.stringify(pending), httpOnlyCookie(c, '/auth', 300))
    return c.redirect('/auth?mode=mfa', 303)
  }
  rememberSession(c, tokens)
  flash(c, notice)
  return c.redirect(next, 303)
}

/** Whether a password sign-in waits for its code (the /auth page then asks for it). */
export const pendingMfa = (c: Context<AppEnv>) => readJson<Pending>(getCookie(c, PENDING_COOKIE))

/** The authenticator app being set up, if any. */
export function enrolment(c: Context<AppEnv>) {
  const e = readJson<{ id: string; uri: string }>(getCookie(c, ENROL_COOKIE))
  if (!e?.uri?.startsWith('otpauth://totp/')) return null
  return { id: e.id, uri: e.uri, secret: new URL(e.uri).searchParams.get('secret') ?? '' }
}

/** The signed-in visitor's factors from the service; null when it cannot be asked. */
export async function accountFactors(c: Context<AppEnv>): Promise<Factor[] | null> {
  if (!c.var.accessToken) return null
  try {
    const res = await callAuth(c, '/user', {
      headers: { Authorization: `Bearer ${c.var.accessToken}` },
    })
    if (!res.ok) return null
    return ((await res.json()) as { factors?: Factor[] }).factors ?? []
  } catch {
    return null
  }
}

const readCode = async (c: Context<AppEnv>) =>
  (await readForm(c, v.object({ code: sixDigits })))?.code ?? null

/** Challenge then verify, as supabase-js's challengeAndVerify does; the aal2 tokens or an error code. */
async function challengeAndVerify(
  c: Context<AppEnv>,
  access: string,
  factorId: string,
  code: string,
): Promise<{ tokens: ServiceTokens } | { error: string }> {
  const auth = { Authorization: `Bearer ${access}` }
  const path = `/factors/${encodeURIComponent(factorId)}`
  try {
    const challenge = await callAuth(c, `${path}/challenge`, { method: 'POST', headers: auth })
    const { id, error_code } = (await challenge.json()) as { id?: string; error_code?: string }
    if (!challenge.ok || !id) return { error: error_code ?? 'unavailable' }
    const verified = await callAuth(c, `${path}/verify`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ challenge_id: id, code }),
    })
    const body = (await verified.json()) as ServiceTokens & { error_code?: string }
    if (!verified.ok || !body.access_token) return { error: body.error_code ?? 'unavailable' }
    return { tokens: body }
  } catch {
    return { error: 'unavailable' }
  }
}

const codeError = (error: string) =>
  error === 'mfa_verification_failed' || error === 'validation_failed' ? 'invalid_code' : error

/** The sign-in's second step: the six-digit code from the authenticator app. */
mfaRoutes.post('/mfa', ...authForm, async (c) => {
  const pending = pendingMfa(c)
  if (!pending) return c.redirect('/auth?error=mfa_expired', 303)
  const code = await readCode(c)
  if (!code) return c.redirect('/auth?mode=mfa&error=invalid_code', 303)
  const result = await challengeAndVerify(c, pending.access_token, pending.factor_id, code)
  if ('error' in result) {
    // the password session behind the step has ended (or the service forgot it): start over
    if (result.error === 'no_authorization') {
      deleteCookie(c, PENDING_COOKIE, { path: '/auth' })
      return c.redirect('/auth?error=mfa_expired', 303)
    }
    return c.redirect(`/auth?mode=mfa&error=${codeError(result.error)}`, 303)
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
  try {
    const res = await callAuth(c, '/factors', {
      method: 'POST',
      headers: { Authorization: `Bearer ${c.var.accessToken}` },
      body: JSON.stringify({
        factor_type: 'totp',
        friendly_name: name,
        issuer: c.var.t('meta.site_name'),
      }),
    })
    const body = (await res.json()) as {
      id?: string
      totp?: { uri: string }
      error_code?: string
    }
    if (!res.ok || !body.id || !body.totp)
      return c.redirect(`/account?error=${body.error_code ?? 'unavailable'}`, 303)
    setCookie(
      c,
      ENROL_COOKIE,
      JSON.stringify({ id: body.id, uri: body.totp.uri }),
      httpOnlyCookie(c, '/', 600),
    )
  } catch {
    return c.redirect('/account?error=unavailable', 303)
  }
  return c.redirect('/account#mfa', 303)
})

/** Confirms the app with its first code: the factor is verified and the session aal2. */
mfaRoutes.post('/factors/verify', ...authForm, signedInOnly, async (c) => {
  const enrolling = enrolment(c)
  if (!enrolling) return c.redirect('/account?error=mfa_expired#mfa', 303)
  const code = await readCode(c)
  if (!code) return c.redirect('/account?error=invalid_code#mfa', 303)
  const result = await challengeAndVerify(c, c.var.accessToken!, enrolling.id, code)
  if ('error' in result) return c.redirect(`/account?error=${codeError(result.error)}#mfa`, 303)
  deleteCookie(c, ENROL_COOKIE, { path: '/' })
  rememberSession(c, result.tokens)
  flash(c, { title: c.var.t('auth.mfa_enabled') })
  return c.redirect('/account', 303)
})

const FactorId = v.object({ factor_id: v.pipe(v.string(), v.uuid()) })

/** Removes a factor (or abandons one being set up). */
mfaRoutes.post('/factors/remove', ...authForm, signedInOnly, async (c) => {
  const input = await readForm(c, FactorId)
  if (!input) return c.redirect('/account?error=unavailable', 303)
  try {
    const res = await callAuth(c, `/factors/${input.factor_id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${c.var.accessToken}` },
    })
    if (!res.ok && res.status !== 404) {
      const { error_code } = (await res.json().catch(() => ({}))) as { error_code?: string }
      return c.redirect(`/account?error=${error_code ?? 'unavailable'}#mfa`, 303)
    }
  } catch {
    return c.redirect('/account?error=unavailable#mfa', 303)
  }
  if (enrolment(c)?.id === input.factor_id) deleteCookie(c, ENROL_COOKIE, { path: '/' })
  else flash(c, { title: c.var.t('auth.mfa_removed') })
  return c.redirect('/account', 303)
})
