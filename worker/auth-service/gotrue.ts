import type { Context } from 'hono'
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  SignJWT,
  type JWTPayload,
} from 'jose'
import * as v from 'valibot'
import {
  failureCount,
  findSession,
  listFactors,
  sessionEnd,
  sessionExpired,
  type FactorRow,
  type SessionRow,
  type UserRow,
} from './db'
import { authSettings } from '../config'
import type { AppEnv } from '../env'
import { ALG, publicKeys, signingKey } from './keys'
import { clientKey } from '../middleware/client-key'
import { limitOf } from './settings'

/**
 * What every endpoint of the built-in service shares: GoTrue's JSON shapes for users, sessions
 * and errors, request bodies checked with valibot, and the bearer token check.
 */

export const ACCESS_TOKEN_SECONDS = 3600

/** The issuer tokens carry and pages accept: the hosted service's URL, or ours. */
export const issuerOf = (c: Context<AppEnv>) => authSettings(c.env, c.var.config.siteUrl).issuer
export const audienceOf = (c: Context<AppEnv>) => authSettings(c.env, c.var.config.siteUrl).audience

export type AuthErrorStatus = 400 | 401 | 403 | 404 | 413 | 422 | 429 | 500 | 503

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

export const userNotFound = (c: Context<AppEnv>, status: 400 | 403 = 403) =>
  authError(c, status, 'user_not_found', 'User from sub claim in JWT does not exist')

/**
 * GoTrue's 429 when one of the keys (an address, a factor, a user) has failed
 * AUTH_CODE_FAILURE_LIMIT times in the last AUTH_FAILURE_WINDOW; null while they may try.
 */
export async function throttled(c: Context<AppEnv>, keys: string[], what: string) {
  const window = limitOf(c.env, 'AUTH_FAILURE_WINDOW')
  if ((await failureCount(c.env.DB, keys, window)) < limitOf(c.env, 'AUTH_CODE_FAILURE_LIMIT'))
    return null
  return tooManyFailures(c, what)
}

/** The 429 of a key that failed too often: it may try again when the window has passed. */
export const tooManyFailures = (c: Context<AppEnv>, what: string) =>
  authError(
    c,
    429,
    'over_request_rate_limit',
    `Too many ${what}. Please try again in ${Math.ceil(limitOf(c.env, 'AUTH_FAILURE_WINDOW') / 60)} minutes.`,
  )

/** The per-IP request limits, each a [[ratelimits]] binding of wrangler.toml. */
export type RequestLimiter = 'AUTH_SIGNUP_LIMITER' | 'AUTH_EMAIL_LIMITER' | 'AUTH_TOKEN_LIMITER'

/**
 * GoTrue's 429 when the client's IP has made too many requests of a kind (`what` keeps kinds
 * that share a binding apart); null while it may go on, or when the binding is missing.
 */
export async function overRequestLimit(c: Context<AppEnv>, binding: RequestLimiter, what: string) {
  const limiter = (c.env as Partial<Record<RequestLimiter, RateLimit>>)[binding]
  if (!limiter) return null
  const { success } = await limiter.limit({ key: `${what}:${clientKey(c)}` })
  return success ? null : authError(c, 429, 'over_request_rate_limit', 'Request rate limit reached')
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
/** GoTrue's app_metadata: the provider, and what the admin set (a staff member's role). */
const appMetadata = (u: UserRow) => ({
  ...(JSON.parse(u.app_metadata || '{}') as Record<string, unknown>),
  provider: 'email',
  providers: ['email'],
})

export function userJson(u: UserRow, factors: FactorRow[] = []) {
  return {
    id: u.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: u.email,
    email_confirmed_at: u.email_confirmed_at,
    // an address waiting for its links: not the account's until they are used (GoTrue's shape)
    ...(u.email_change
      ? { new_email: u.email_change, email_change_sent_at: u.email_change_sent_at }
      : {}),
    phone: '',
    confirmed_at: u.email_confirmed_at,
    last_sign_in_at: u.last_sign_in_at,
    app_metadata: appMetadata(u),
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
  session: Pick<SessionRow, 'id' | 'aal' | 'amr' | 'created_at'>,
  refreshToken: string,
) {
  const [key, factors] = await Promise.all([signingKey(c.env), listFactors(c.env.DB, user.id)])
  const now = Math.floor(Date.now() / 1000)
  // no access token outlives its session
  const expiresAt = Math.min(
    now + ACCESS_TOKEN_SECONDS,
    Math.floor(sessionEnd(session, limitOf(c.env, 'AUTH_SESSION_MAX_AGE')) / 1000),
  )
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
    app_metadata: appMetadata(user),
    user_metadata: JSON.parse(user.user_metadata),
  })
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
    .setIssuer(issuerOf(c))
    .setAudience(audienceOf(c))
    .setSubject(user.id)
    .setIssuedAt(now)
    .setExpirationTime(expiresAt)
    .sign(key.privateKey)
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: expiresAt - now,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: userJson(user, factors),
  }
}

export type Claims = JWTPayload & { sub: string; session_id: string; aal: string }

/** GoTrue's wording (golang-jwt's) of why a token was refused, after its common prefix. */
function jwtProblem(err: unknown, token: string) {
  const header = (() => {
    try {
      return decodeProtectedHeader(token)
    } catch {
      return {}
    }
  })()
  if (err instanceof errors.JWTExpired) return 'token has invalid claims: token is expired'
  if (err instanceof errors.JWTClaimValidationFailed) {
    const claim = { iss: 'issuer', aud: 'audience', nbf: 'not valid yet' }[err.claim]
    return claim === 'not valid yet'
      ? 'token has invalid claims: token is not valid yet'
      : `token has invalid claims: token has invalid ${claim ?? 'claims'}`
  }
  if (err instanceof errors.JOSEAlgNotAllowed)
    return `token signature is invalid: signing method ${String(header.alg)} is invalid`
  if (err instanceof errors.JWKSNoMatchingKey)
    return `token is unverifiable: error while executing keyfunc: unrecognized JWT kid ${String(header.kid)} for algorithm ${String(header.alg)}`
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return 'token signature is invalid: crypto/ecdsa: verification error'
  return 'token is malformed'
}

/**
 * The verified claims of the request's bearer token, its session still live; or GoTrue's
 * refusal: 401 without a token, 403 `bad_jwt` for a token that does not verify, 403
 * `session_not_found` for one whose session has ended.
 */
export async function authenticate(c: Context<AppEnv>): Promise<Claims | Response> {
  const token = c.req.header('Authorization')?.match(/^bearer (\S+)$/i)?.[1]
  if (!token) return noBearer(c)
  const keys = createLocalJWKSet({ keys: await publicKeys(c.env) })
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(token, keys, {
      algorithms: [ALG],
      issuer: issuerOf(c),
      audience: audienceOf(c),
    }))
  } catch (err) {
    return authError(
      c,
      403,
      'bad_jwt',
      `invalid JWT: unable to parse or verify signature, ${jwtProblem(err, token)}`,
    )
  }
  if (typeof payload.sub !== 'string' || !payload.sub)
    return authError(c, 403, 'bad_jwt', 'invalid claim: missing sub claim')
  const session =
    typeof payload.session_id === 'string' ? await findSession(c.env.DB, payload.session_id) : null
  if (!session || session.revoked_at || session.user_id !== payload.sub)
    return authError(
      c,
      403,
      'session_not_found',
      'Session from session_id claim in JWT does not exist',
    )
  if (sessionExpired(session, limitOf(c.env, 'AUTH_SESSION_MAX_AGE')))
    return authError(c, 403, 'session_expired', 'Session is no longer valid')
  return payload as Claims
}
