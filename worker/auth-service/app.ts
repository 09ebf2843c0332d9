import { Hono } from 'hono'
import * as v from 'valibot'
import {
  countFailure,
  createSession,
  createUser,
  findUser,
  findUserByEmail,
  listFactors,
  revokeSessions,
  rotateRefreshToken,
  updateUser,
} from './db'
import { readConfig } from '../config'
import type { Lang } from '../../client/lib/languages'
import { detectLanguage } from '../middleware/i18n'
import { createTranslator } from '../i18n/translator'
import type { AppEnv } from '../env'
import { limitBody } from '../middleware/form-guard'
import { factorRoutes } from './factors'
import { oneTimeRoutes, spendReauthentication } from './one-time'
import { AuthConfigError, publicKeys } from './keys'
import {
  authError,
  invalidEmail,
  bearerClaims,
  body,
  emailSchema,
  noBearer,
  sessionJson,
  throttled,
  userNotFound,
  userJson,
  weakPasswordError,
} from './gotrue'
import { weakPassword } from '../../client/schemas/auth'
import { hashPassword, verifyPassword } from './passwords'

/**
 * The built-in auth service, mounted at /auth/v1 when AUTH_URL is not set. It speaks the
 * Supabase Auth (GoTrue) HTTP API closely enough for @supabase/supabase-js to use it unchanged:
 * the same paths, JSON shapes, error shapes ({code, error_code, msg}) and status codes.
 */
export const authService = new Hono<AppEnv>()

const mailLanguage = detectLanguage()

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
  if (typeof c.var.t === 'function') return next()
  // the site passes its visitor's language on, for the e-mails the service sends
  return mailLanguage(c, async () => {
    const lang = c.get('language') as Lang
    c.set('lang', lang)
    c.set('t', createTranslator(lang))
    await next()
  })
})
// With a hosted service configured (AUTH_URL) the built-in one is not there at all.
authService.use(async (c, next) => (c.env.AUTH_URL ? c.notFound() : next()))
authService.use(limitBody(16 * 1024))

const SignupSchema = v.object({
  email: emailSchema,
  password: v.string(),
  data: v.optional(v.record(v.string(), v.unknown())),
})
const PasswordGrantSchema = v.object({ email: emailSchema, password: v.string() })
const RefreshGrantSchema = v.object({ refresh_token: v.pipe(v.string(), v.minLength(1)) })
const UpdateUserSchema = v.object({
  email: v.optional(emailSchema),
  password: v.optional(v.string()),
  data: v.optional(v.record(v.string(), v.unknown())),
  nonce: v.optional(v.string()),
})

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
  if (!input) return invalidEmail(c)
  if (weakPassword(input.password)) return weakPasswordError(c)
  const user = await createUser(c.env.DB, {
    email: input.email,
    passwordHash: await hashPassword(input.password),
    metadata: input.data ?? {},
  })
  if (!user) return authError(c, 422, 'user_already_exists', 'User already registered')
  // E-mail confirmation is off for the built-in service: signing up signs in.
  const { session, refreshToken } = await createSession(c.env.DB, user.id)
  return c.json(await sessionJson(c, (await findUser(c.env.DB, user.id))!, session, refreshToken))
})

authService.post('/token', async (c) => {
  const grant = c.req.query('grant_type')
  if (grant === 'password') {
    const input = await body(c, PasswordGrantSchema)
    if (!input) return authError(c, 400, 'validation_failed', 'Missing email or password')
    const keys = [`email:${input.email}`, `ip:${c.req.header('CF-Connecting-IP') ?? 'unknown'}`]
    const tooMany = await throttled(c, keys, 'sign-in attempts')
    if (tooMany) return tooMany
    const user = await findUserByEmail(c.env.DB, input.email)
    // The same work and the same answer whether or not the account exists.
    const ok = user
      ? await verifyPassword(input.password, user.password_hash)
      : (await hashPassword(input.password), false)
    if (!user || !ok) {
      await countFailure(c.env.DB, keys)
      return authError(c, 400, 'invalid_credentials', 'Invalid login credentials')
    }
    const { session, refreshToken } = await createSession(c.env.DB, user.id)
    return c.json(await sessionJson(c, (await findUser(c.env.DB, user.id))!, session, refreshToken))
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
    const user = await findUser(c.env.DB, rotated.session.user_id)
    if (!user) return userNotFound(c, 400)
    return c.json(await sessionJson(c, user, rotated.session, rotated.refreshToken))
  }
  return authError(c, 400, 'validation_failed', 'Unsupported grant type')
})

authService.get('/user', async (c) => {
  const claims = await bearerClaims(c)
  if (!claims) return noBearer(c)
  const user = await findUser(c.env.DB, claims.sub)
  if (!user) return userNotFound(c)
  return c.json(userJson(user, await listFactors(c.env.DB, user.id)))
})

authService.put('/user', async (c) => {
  const claims = await bearerClaims(c)
  if (!claims) return noBearer(c)
  const input = await body(c, UpdateUserSchema)
  if (!input) return authError(c, 400, 'validation_failed', 'Invalid user attributes')
  if (input.password !== undefined && weakPassword(input.password)) return weakPasswordError(c)
  const current = await findUser(c.env.DB, claims.sub)
  if (!current) return userNotFound(c)
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
  // a nonce from GET /reauthenticate, when the client sends one with a new password
  if (input.password !== undefined && input.nonce !== undefined) {
    const refused = await spendReauthentication(c, current.id, input.nonce)
    if (refused) return refused
  }
  const updated = await updateUser(c.env.DB, claims.sub, {
    email: input.email,
    passwordHash: input.password === undefined ? undefined : await hashPassword(input.password),
    metadata: input.data ? { ...JSON.parse(current.user_metadata), ...input.data } : undefined,
  })
  return c.json(userJson(updated!, await listFactors(c.env.DB, updated!.id)))
})

authService.post('/logout', async (c) => {
  const claims = await bearerClaims(c)
  if (!claims) return noBearer(c)
  const scope = c.req.query('scope') ?? 'global'
  if (scope !== 'global' && scope !== 'local' && scope !== 'others')
    return authError(c, 400, 'validation_failed', 'Unsupported logout scope')
  await revokeSessions(c.env.DB, claims.sub, claims.session_id, scope)
  return c.body(null, 204)
})

authService.route('/', factorRoutes)
authService.route('/', oneTimeRoutes)
