import type { Context } from 'hono'
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose'
import * as v from 'valibot'
import {
  failureCount,
  findSession,
  listFactors,
  type FactorRow,
  type SessionRow,
  type UserRow,
} from './db'
import { authSettings } from '../config'
import type { AppEnv } from '../env'
import { ALG, publicKeys, signingKey } from './keys'

/**
 * What every endpoint of the built-in service shares: GoTrue's JSON shapes for users, sessions
 * and errors, request bodies checked with valibot, and the bearer token check.
 */

export const ACCESS_TOKEN_SECONDS = 3600

/** The issuer tokens carry and pages accept: the hosted service's URL, or ours. */
export const issuerOf = (c: Context<AppEnv>) => authSettings(c.env, c.var.config.siteUrl).issuer
export const audienceOf = (c: Context<AppEnv>) => authSettings(c.env, c.var.config.siteUrl).audience

export type AuthErrorStatus = 400 | 401 | 403 | 404 | 422 | 429 | 503

export function authError(c: Context<AppEnv>, status: AuthErrorStatus, code: string, msg: string) {
  return c.json({ code: status, error_code: code, msg }, status)
}

export const invalidEmail = (c: Context<AppEnv>) =>
  authError(c, 400, 'validation_failed', 'Unable to validate email address: invalid format')

/** The built-in service's password rule; the site's forms ask for the same. */

export const weakPasswordError = (c: Context<AppEnv>) =>
  c.json(
    {
      code: 422,
      error_code: 'weak_password',
      msg: 'Password should be at least 8 characters.',
      weak_password: { reasons: ['length'] },
    },
    422,
  )

export const userNotFound = (c: Context<AppEnv>, status: 400 | 404 = 404) =>
  authError(c, status, 'user_not_found', 'User from sub claim in JWT does not exist')

/** Failures allowed per key (an e-mail, an IP, a factor) in 15 minutes before GoTrue's 429. */
export const MAX_FAILURES = 5

/** GoTrue's 429 when one of the keys has failed too often lately; null while they may try. */
export async function throttled(c: Context<AppEnv>, keys: string[], what: string) {
  if ((await failureCount(c.env.DB, keys)) < MAX_FAILURES) return null
  return authError(
    c,
    429,
    'over_request_rate_limit',
    `Too many ${what}. Please try again in 15 minutes.`,
  )
}

export const noBearer = (c: Context<AppEnv>) =>
  authError(c, 401, 'no_authorization', 'This endpoint requires a valid Bearer token')

/** An e-mail address as GoTrue takes it: trimmed and lower-cased. */
export const emailSchema = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.email(),
  v.maxLength(254),
)

/** The JSON body checked against the schema; null when it does not fit. */
export async function body<S extends v.GenericSchema>(c: Context<AppEnv>, schema: S) {
  const json = await c.req.json().catch(() => undefined)
  const parsed = v.safeParse(schema, json)
  return parsed.success ? (parsed.output as v.InferOutput<S>) : null
}

/** GoTrue's factor object. */
export const factorJson = (f: FactorRow) => ({
  id: f.id,
  friendly_name: f.friendly_name ?? undefined,
  factor_type: f.factor_type,
  status: f.status,
  created_at: f.created_at,
  updated_at: f.updated_at,
})

/** GoTrue's user object; `factors` only when the user has any, as GoTrue does. */
export function userJson(u: UserRow, factors: FactorRow[] = []) {
  return {
    id: u.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: u.email,
    email_confirmed_at: u.email_confirmed_at,
    phone: '',
    confirmed_at: u.email_confirmed_at,
    last_sign_in_at: u.last_sign_in_at,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: JSON.parse(u.user_metadata),
    identities: [
      {
        identity_id: u.id,
        id: u.id,
        user_id: u.id,
        identity_data: { email: u.email, sub: u.id, email_verified: true },
        provider: 'email',
        last_sign_in_at: u.last_sign_in_at,
        created_at: u.created_at,
        updated_at: u.updated_at,
        email: u.email,
      },
    ],
    ...(factors.length ? { factors: factors.map(factorJson) } : {}),
    created_at: u.created_at,
    updated_at: u.updated_at,
    is_anonymous: false,
  }
}

/** GoTrue's session answer: a signed access token, the refresh token and the user. */
export async function sessionJson(
  c: Context<AppEnv>,
  user: UserRow,
  session: Pick<SessionRow, 'id' | 'aal' | 'amr'>,
  refreshToken: string,
) {
  const [key, factors] = await Promise.all([signingKey(c.env), listFactors(c.env.DB, user.id)])
  const now = Math.floor(Date.now() / 1000)
  // the newest method first, as GoTrue lists them
  const amr = session.amr
    .split(',')
    .reverse()
    .map((method) => ({ method, timestamp: now }))
  const accessToken = await new SignJWT({
    email: user.email,
    phone: '',
    role: 'authenticated',
    aal: session.aal,
    amr,
    session_id: session.id,
    is_anonymous: false,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: JSON.parse(user.user_metadata),
  })
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
    .setIssuer(issuerOf(c))
    .setAudience(audienceOf(c))
    .setSubject(user.id)
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TOKEN_SECONDS)
    .sign(key.privateKey)
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    expires_at: now + ACCESS_TOKEN_SECONDS,
    refresh_token: refreshToken,
    user: userJson(user, factors),
  }
}

/** The verified claims of the request's bearer token (its session still live), or null. */
export async function bearerClaims(c: Context<AppEnv>) {
  const token = c.req.header('Authorization')?.match(/^Bearer (.+)$/i)?.[1]
  if (!token) return null
  try {
    const { payload } = await jwtVerify(
      token,
      createLocalJWKSet({ keys: await publicKeys(c.env) }),
      { algorithms: [ALG], issuer: issuerOf(c), audience: audienceOf(c) },
    )
    const session = await findSession(c.env.DB, String(payload.session_id))
    if (!session || session.revoked_at) return null
    return payload as typeof payload & { sub: string; session_id: string; aal: string }
  } catch {
    return null
  }
}
