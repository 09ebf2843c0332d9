import { Hono, type Context } from 'hono'
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose'
import * as v from 'valibot'
import {
  countFailure,
  createOneTimeToken,
  createSession,
  createUser,
  failureCount,
  findSession,
  findUser,
  findUserByEmail,
  revokeSessions,
  rotateRefreshToken,
  updateUser,
  useOneTimeToken,
  type UserRow,
} from '../db/auth'
import { queueMail } from '../mail/send'
import { readConfig } from '../config'
import { negotiateLanguage } from '../i18n/negotiate'
import { createTranslator } from '../i18n/translator'
import type { AppEnv } from '../env'
import { limitBody } from '../middleware/form-guard'
import { ALG, AuthConfigError, publicKeys, signingKey } from './keys'
import { hashPassword, verifyPassword } from './passwords'

/**
 * The built-in auth service, mounted at /auth/v1 when AUTH_URL is not set. It speaks the
 * Supabase Auth (GoTrue) HTTP API closely enough for @supabase/supabase-js to use it unchanged:
 * the same paths, JSON shapes, error shapes ({code, error_code, msg}) and status codes.
 */
export const authService = new Hono<AppEnv>()

export const ACCESS_TOKEN_SECONDS = 3600
const MAX_FAILURES = 5

export const issuerOf = (c: Context<AppEnv>) =>
  c.env.AUTH_ISSUER || `${c.var.config.siteUrl}/auth/v1`
export const audienceOf = (c: Context<AppEnv>) => c.env.AUTH_AUDIENCE || 'authenticated'

function authError(
  c: Context<AppEnv>,
  status: 400 | 401 | 403 | 404 | 422 | 429 | 503,
  errorCode: string,
  msg: string,
) {
  return c.json({ code: status, error_code: errorCode, msg }, status)
}

authService.onError((err, c) => {
  if (err instanceof AuthConfigError) return authError(c, 503, 'unexpected_failure', err.message)
  console.error('auth service', err)
  return authError(
    c,
    503,
    'unexpected_failure',
    'The auth service is unavailable, please try again.',
  )
})
// Called in-process by the site (worker/auth/session.ts) it has no app middleware around it.
authService.use(async (c, next) => {
  if (!c.var.config) c.set('config', readConfig(c.env, c.req.url))
  if (!c.var.t) {
    // the site passes its visitor's language on, for the e-mails the service sends
    const lang = negotiateLanguage({ acceptLanguage: c.req.header('Accept-Language') })
    c.set('lang', lang)
    c.set('t', createTranslator(lang))
  }
  await next()
})
// With a hosted service configured (AUTH_URL) the built-in one is not there at all.
authService.use(async (c, next) => (c.env.AUTH_URL ? c.notFound() : next()))
authService.use(limitBody(16 * 1024))

const email = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email(), v.maxLength(254))
const SignupSchema = v.object({
  email,
  password: v.string(),
  data: v.optional(v.record(v.string(), v.unknown())),
})
const PasswordGrantSchema = v.object({ email, password: v.string() })
const RefreshGrantSchema = v.object({ refresh_token: v.pipe(v.string(), v.minLength(1)) })
const UpdateUserSchema = v.object({
  email: v.optional(email),
  password: v.optional(v.string()),
  data: v.optional(v.record(v.string(), v.unknown())),
})

async function body<S extends v.GenericSchema>(c: Context<AppEnv>, schema: S) {
  const json = await c.req.json().catch(() => undefined)
  const parsed = v.safeParse(schema, json)
  return parsed.success ? parsed.output : null
}

const weakPassword = (password: string) => password.length < 8

/** GoTrue's user object. */
export function userJson(u: UserRow) {
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
    created_at: u.created_at,
    updated_at: u.updated_at,
    is_anonymous: false,
  }
}

async function sessionJson(
  c: Context<AppEnv>,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
  aal = 'aal1',
) {
  const key = await signingKey(c.env)
  const now = Math.floor(Date.now() / 1000)
  const accessToken = await new SignJWT({
    email: user.email,
    phone: '',
    role: 'authenticated',
    aal,
    amr: [{ method: 'password', timestamp: now }],
    session_id: sessionId,
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
    user: userJson(user),
  }
}

/** The verified claims of the request's bearer token, or null. */
export async function bearerClaims(c: Context<AppEnv>) {
  const token = c.req.header('Authorization')?.match(/^Bearer (.+)$/i)?.[1]
  if (!token) return null
  try {
    const { payload } = await jwtVerify(
      token,
      createLocalJWKSet({ keys: await publicKeys(c.env) }),
      {
        algorithms: [ALG],
        issuer: issuerOf(c),
        audience: audienceOf(c),
      },
    )
    const session = await findSession(c.env.DB, String(payload.session_id))
    if (!session || session.revoked_at) return null
    return payload as typeof payload & { sub: string; session_id: string }
  } catch {
    return null
  }
}

authService.get('/settings', (c) =>
  c.json({
    external: { email: true, phone: false },
    disable_signup: false,
    mailer_autoconfirm: true,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  }),
)

authService.get('/.well-known/jwks.json', async (c) => {
  c.header('Cache-Control', 'public, max-age=600')
  return c.json({ keys: await publicKeys(c.env) })
})

authService.post('/signup', async (c) => {
  const input = await body(c, SignupSchema)
  if (!input)
    return authError(
      c,
      400,
      'validation_failed',
      'Unable to validate email address: invalid format',
    )
  if (weakPassword(input.password))
    return c.json(
      {
        code: 422,
        error_code: 'weak_password',
        msg: 'Password should be at least 8 characters.',
        weak_password: { reasons: ['length'] },
      },
      422,
    )
  const user = await createUser(c.env.DB, {
    email: input.email,
    passwordHash: await hashPassword(input.password),
    metadata: input.data ?? {},
  })
  if (!user) return authError(c, 422, 'user_already_exists', 'User already registered')
  // E-mail confirmation is off for the built-in service: signing up signs in.
  const { sessionId, refreshToken } = await createSession(c.env.DB, user.id)
  return c.json(await sessionJson(c, (await findUser(c.env.DB, user.id))!, sessionId, refreshToken))
})

authService.post('/token', async (c) => {
  const grant = c.req.query('grant_type')
  if (grant === 'password') {
    const input = await body(c, PasswordGrantSchema)
    if (!input) return authError(c, 400, 'validation_failed', 'Missing email or password')
    const keys = [`email:${input.email}`, `ip:${c.req.header('CF-Connecting-IP') ?? 'unknown'}`]
    if ((await failureCount(c.env.DB, keys)) >= MAX_FAILURES)
      return authError(
        c,
        429,
        'over_request_rate_limit',
        'Too many sign-in attempts. Please try again in 15 minutes.',
      )
    const user = await findUserByEmail(c.env.DB, input.email)
    // The same work and the same answer whether or not the account exists.
    const ok = user
      ? await verifyPassword(input.password, user.password_hash)
      : (await hashPassword(input.password), false)
    if (!user || !ok) {
      await countFailure(c.env.DB, keys)
      return authError(c, 400, 'invalid_credentials', 'Invalid login credentials')
    }
    const { sessionId, refreshToken } = await createSession(c.env.DB, user.id)
    return c.json(
      await sessionJson(c, (await findUser(c.env.DB, user.id))!, sessionId, refreshToken),
    )
  }
  if (grant === 'refresh_token') {
    const input = await body(c, RefreshGrantSchema)
    if (!input) return authError(c, 400, 'validation_failed', 'Refresh token is missing')
    const rotated = await rotateRefreshToken(c.env.DB, input.refresh_token)
    if (!rotated.ok) {
      if (rotated.reason === 'reused')
        return authError(
          c,
          400,
          'refresh_token_already_used',
          'Invalid Refresh Token: Already Used',
        )
      return authError(
        c,
        400,
        'refresh_token_not_found',
        'Invalid Refresh Token: Refresh Token Not Found',
      )
    }
    const user = await findUser(c.env.DB, rotated.userId)
    if (!user)
      return authError(c, 400, 'user_not_found', 'User from sub claim in JWT does not exist')
    return c.json(await sessionJson(c, user, rotated.sessionId, rotated.refreshToken, rotated.aal))
  }
  return authError(c, 400, 'validation_failed', 'Unsupported grant type')
})

authService.get('/user', async (c) => {
  const claims = await bearerClaims(c)
  if (!claims)
    return authError(c, 401, 'no_authorization', 'This endpoint requires a valid Bearer token')
  const user = await findUser(c.env.DB, claims.sub)
  if (!user) return authError(c, 404, 'user_not_found', 'User from sub claim in JWT does not exist')
  return c.json(userJson(user))
})

authService.put('/user', async (c) => {
  const claims = await bearerClaims(c)
  if (!claims)
    return authError(c, 401, 'no_authorization', 'This endpoint requires a valid Bearer token')
  const input = await body(c, UpdateUserSchema)
  if (!input) return authError(c, 400, 'validation_failed', 'Invalid user attributes')
  if (input.password !== undefined && weakPassword(input.password))
    return c.json(
      {
        code: 422,
        error_code: 'weak_password',
        msg: 'Password should be at least 8 characters.',
        weak_password: { reasons: ['length'] },
      },
      422,
    )
  const current = await findUser(c.env.DB, claims.sub)
  if (!current)
    return authError(c, 404, 'user_not_found', 'User from sub claim in JWT does not exist')
  if (
    input.email &&
    input.email !== current.email &&
    (await findUserByEmail(c.env.DB, input.email))
  )
    return authError(
      c,
      422,
      'email_exists',
      'A user with this email address has already been registered',
    )
  const updated = await updateUser(c.env.DB, claims.sub, {
    email: input.email,
    passwordHash: input.password === undefined ? undefined : await hashPassword(input.password),
    metadata: input.data ? { ...JSON.parse(current.user_metadata), ...input.data } : undefined,
  })
  return c.json(userJson(updated!))
})

authService.post('/logout', async (c) => {
  const claims = await bearerClaims(c)
  if (!claims)
    return authError(c, 401, 'no_authorization', 'This endpoint requires a valid Bearer token')
  const scope = c.req.query('scope') ?? 'global'
  if (scope !== 'global' && scope !== 'local' && scope !== 'others')
    return authError(c, 400, 'validation_failed', 'Unsupported logout scope')
  await revokeSessions(c.env.DB, claims.sub, claims.session_id, scope)
  return c.body(null, 204)
})

const RecoverSchema = v.object({ email })
const VerifySchema = v.object({
  type: v.literal('recovery'),
  token_hash: v.pipe(v.string(), v.minLength(20), v.maxLength(200)),
})

/** Where a recovery e-mail's link leads: the site's page to choose a new password. */
export const resetLink = (c: Context<AppEnv>, token: string) =>
  `${c.var.config.siteUrl}/auth/reset?token=${encodeURIComponent(token)}`

authService.post('/recover', async (c) => {
  const input = await body(c, RecoverSchema)
  if (!input)
    return authError(
      c,
      400,
      'validation_failed',
      'Unable to validate email address: invalid format',
    )
  const user = await findUserByEmail(c.env.DB, input.email)
  // The same answer whether or not the account exists: nobody learns who has one.
  if (user) {
    const token = await createOneTimeToken(c.env.DB, user.id, 'recovery')
    const t = c.var.t
    queueMail(c, {
      to: user.email,
      subject: t('auth.recovery_subject'),
      text: t('auth.recovery_body', { link: resetLink(c, token) }),
    })
  }
  return c.json({})
})

authService.post('/verify', async (c) => {
  const input = await body(c, VerifySchema)
  if (!input)
    return authError(
      c,
      400,
      'validation_failed',
      'Verify requires a token_hash and a supported type',
    )
  const userId = await useOneTimeToken(c.env.DB, input.token_hash, input.type)
  if (!userId) return authError(c, 403, 'otp_expired', 'Email link is invalid or has expired')
  const user = await findUser(c.env.DB, userId)
  if (!user) return authError(c, 403, 'otp_expired', 'Email link is invalid or has expired')
  const { sessionId, refreshToken } = await createSession(c.env.DB, user.id)
  return c.json(await sessionJson(c, user, sessionId, refreshToken))
})
