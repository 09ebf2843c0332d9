import type { Context } from 'hono'
import type { JWK } from 'jose'
import { serviceRoleToken } from '../auth-service/admin'
import { authService } from '../auth-service/app'
import { findSessionUser } from '../auth-service/db'
import { limitOf } from '../auth-service/settings'
import { authSettings } from '../config'
import type { AppEnv } from '../env'
import type { AccessClaims, AuthResult, AuthUser, TokenSet } from '../auth-types'

/**
 * The site's one way to talk to its auth provider (Supabase Auth / GoTrue HTTP API): the built-in
 * provider in-process when AUTH_URL is empty, the hosted one over HTTP otherwise. Every call
 * answers a typed result; a provider that cannot be reached answers `unavailable`, never throws.
 */

const unavailable = { ok: false as const, status: 503, code: 'unavailable', msg: 'unreachable' }

/**
 * How long the site waits for its provider: a call that takes longer answers `unavailable`, so
 * a provider that accepts connections and never answers cannot hang a page or a form.
 */
export const AUTH_TIMEOUT_MS = 2500
/** Key sets are asked for in the page's path: they must come quickly or not at all. */
const KEYS_TIMEOUT_MS = 800

async function send(c: Context<AppEnv>, path: string, init: RequestInit): Promise<Response> {
  const headers = new Headers(init.headers)
  headers.set('Content-Type', 'application/json')
  const { url } = authSettings(c.env, c.var.config.siteUrl)
  if (url) {
    headers.set('apikey', c.env.AUTH_API_KEY ?? '')
    return fetch(url + path, { ...init, headers })
  }
  headers.set('CF-Connecting-IP', c.req.header('CF-Connecting-IP') ?? 'unknown')
  // the service mails in the visitor's language
  headers.set('Accept-Language', c.var.lang)
  // the site's own origin, so the service issues tokens for the issuer the pages verify
  return authService.request(
    new URL(path, c.req.url).href,
    { ...init, headers },
    c.env,
    c.executionCtx,
  )
}

/** A body that stops arriving counts as a time-out too. */
const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms)),
  ])

async function call<T>(
  c: Context<AppEnv>,
  path: string,
  init: RequestInit & { token?: string; json?: unknown; timeoutMs?: number } = {},
): Promise<AuthResult<T>> {
  const { token, json, timeoutMs = AUTH_TIMEOUT_MS, ...rest } = init
  const headers = new Headers(rest.headers)
  if (token) headers.set('Authorization', `Bearer ${token}`)
  let res: Response
  try {
    res = await send(c, path, {
      ...rest,
      headers,
      body: json === undefined ? rest.body : JSON.stringify(json),
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (err) {
    return err instanceof Error && err.name === 'TimeoutError'
      ? { ...unavailable, status: 504, msg: 'timed out' }
      : unavailable
  }
  const body = (await withTimeout(res.json(), timeoutMs).catch(() => null)) as
    | (T & { error_code?: string; msg?: string })
    | null
  if (res.ok && body !== null) return { ok: true, data: body }
  if (res.ok) return { ok: true, data: undefined as T }
  return {
    ok: false,
    status: res.status,
    code: body?.error_code ?? (res.status >= 500 ? 'unavailable' : `http_${res.status}`),
    msg: body?.msg ?? `HTTP ${res.status}`,
  }
}

/**
 * A call to GoTrue's admin API, with the service role: AUTH_SERVICE_ROLE_KEY for a hosted
 * service, a one-minute token of ours for the built-in one.
 */
async function asAdmin<T>(
  c: Context<AppEnv>,
  path: string,
  init: RequestInit & { json?: unknown },
): Promise<AuthResult<T>> {
  const token = c.env.AUTH_URL ? c.env.AUTH_SERVICE_ROLE_KEY : await serviceRoleToken(c)
  if (!token) return { ...unavailable, msg: 'AUTH_SERVICE_ROLE_KEY is not set' }
  return call<T>(c, path, { ...init, token })
}

/** A Turnstile token as GoTrue takes it (supabase-js `options.captchaToken`). */
const captcha = (token: string | undefined) =>
  token ? { gotrue_meta_security: { captcha_token: token } } : {}

/** The provider's API, as the site uses it. */
export function authClient(c: Context<AppEnv>) {
  return {
    signIn: (email: string, password: string) =>
      call<TokenSet>(c, '/token?grant_type=password', {
        method: 'POST',
        json: { email, password },
      }),
    /** A session, or (when the provider confirms addresses first) the new user alone. */
    signUp: (email: string, password: string, captchaToken?: string) =>
      call<TokenSet | (AuthUser & { access_token?: undefined })>(c, '/signup', {
        method: 'POST',
        json: { email, password, ...captcha(captchaToken) },
      }),
    refresh: (refreshToken: string) =>
      call<TokenSet>(c, '/token?grant_type=refresh_token', {
        method: 'POST',
        json: { refresh_token: refreshToken },
      }),
    signOut: (token: string, scope: 'local' | 'global' | 'others' = 'local') =>
      call<void>(c, `/logout?scope=${scope}`, { method: 'POST', token }),
    recover: (email: string, captchaToken?: string) =>
      call<void>(c, '/recover', { method: 'POST', json: { email, ...captcha(captchaToken) } }),
    sendSignInEmail: (email: string, captchaToken?: string) =>
      call<void>(c, '/otp', {
        method: 'POST',
        json: { email, create_user: false, ...captcha(captchaToken) },
      }),
    /**
     * The same code, to a signed-in account's own address (deleting it): sent with the service
     * role, which GoTrue's captcha check lets through (AUTH_SERVICE_ROLE_KEY when hosted).
     */
    sendOwnAccountCode: async (email: string): Promise<AuthResult<void>> => {
      const token = c.env.AUTH_URL ? c.env.AUTH_SERVICE_ROLE_KEY : await serviceRoleToken(c)
      if (!token) return { ...unavailable, msg: 'AUTH_SERVICE_ROLE_KEY is not set' }
      return call<void>(c, '/otp', { method: 'POST', token, json: { email, create_user: false } })
    },
    verify: (input: Record<string, string>) =>
      call<TokenSet>(c, '/verify', { method: 'POST', json: input }),
    user: (token: string) => call<AuthUser>(c, '/user', { token }),
    /**
     * The account of a token already verified, its session still live, as GET /user confirms
     * it. The built-in provider runs in this worker: one read of its tables answers the same
     * (a revoked session, a deleted user, a changed role show at once), less the factors,
     * without a request to itself that would verify the token again.
     */
    liveUser: async (token: string, claims: AccessClaims): Promise<AuthResult<AuthUser>> => {
      if (authSettings(c.env, c.var.config.siteUrl).url)
        return call<AuthUser>(c, '/user', { token })
      try {
        const row = claims.session_id
          ? await findSessionUser(
              c.env.DB,
              claims.session_id,
              claims.sub,
              limitOf(c.env, 'AUTH_SESSION_MAX_AGE'),
            )
          : null
        if (!row) return { ok: false, status: 403, code: 'session_not_found', msg: 'no session' }
        const appMetadata = JSON.parse(row.app_metadata || '{}') as Record<string, unknown>
        return { ok: true, data: { id: row.id, email: row.email, app_metadata: appMetadata } }
      } catch {
        return unavailable
      }
    },
    updateUser: (token: string, changes: { password?: string; email?: string }) =>
      call<AuthUser>(c, '/user', { method: 'PUT', token, json: changes }),
    enrolTotp: (token: string, friendlyName: string, issuer: string) =>
      call<{ id: string; totp: { uri: string } }>(c, '/factors', {
        method: 'POST',
        token,
        json: { factor_type: 'totp', friendly_name: friendlyName, issuer },
      }),
    challenge: (token: string, factorId: string) =>
      call<{ id: string }>(c, `/factors/${encodeURIComponent(factorId)}/challenge`, {
        method: 'POST',
        token,
      }),
    verifyFactor: (token: string, factorId: string, challengeId: string, code: string) =>
      call<TokenSet>(c, `/factors/${encodeURIComponent(factorId)}/verify`, {
        method: 'POST',
        token,
        json: { challenge_id: challengeId, code },
      }),
    unenrol: (token: string, factorId: string) =>
      call<void>(c, `/factors/${encodeURIComponent(factorId)}`, { method: 'DELETE', token }),
    /** GoTrue's admin delete, with the service role (AUTH_SERVICE_ROLE_KEY for a hosted one). */
    deleteUser: (userId: string) =>
      asAdmin<void>(c, `/admin/users/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
    /** GoTrue's admin read of an account, with its factors (the team page's). */
    adminUser: (userId: string) =>
      asAdmin<AuthUser>(c, `/admin/users/${encodeURIComponent(userId)}`, {}),
    /**
     * GoTrue's admin create: an account whose address the site vouches for (an invitation's
     * link proved it), with its app_metadata (a staff role) from the start.
     */
    adminCreateUser: (email: string, password: string, appMetadata: Record<string, unknown>) =>
      asAdmin<AuthUser>(c, '/admin/users', {
        method: 'POST',
        json: { email, password, email_confirm: true, app_metadata: appMetadata },
      }),
    /** GoTrue's admin update of app_metadata: keys set, a null one removed, the rest kept. */
    adminSetAppMetadata: (userId: string, appMetadata: Record<string, unknown>) =>
      asAdmin<AuthUser>(c, `/admin/users/${encodeURIComponent(userId)}`, {
        method: 'PUT',
        json: { app_metadata: appMetadata },
      }),
    jwks: () => call<{ keys: JWK[] }>(c, '/.well-known/jwks.json', { timeoutMs: KEYS_TIMEOUT_MS }),
  }
}
