import { Hono, type Context } from 'hono'
import { getCookie } from 'hono/cookie'
import * as v from 'valibot'
import {
  createOneTimeToken,
  countFailure,
  createSession,
  createUser,
  findUser,
  findUserByEmail,
  listFactors,
  revokeSessions,
  rotateRefreshToken,
  setPassword,
  updateUser,
} from './db'
import { readConfig } from '../config'
import { LANG_STORAGE_KEY } from '../../client/lib/languages'
import { chooseLanguage } from '../i18n/negotiate'
import { createTranslator } from '../i18n/translator'
import type { AppEnv } from '../env'
import { limitBody } from '../middleware/form-guard'
import { factorRoutes } from './factors'
import { askEmailChange, emailChangeCooldown } from './email-change'
import { signupLink } from './links'
import { oneTimeRoutes, spendReauthentication } from './one-time'
import { enqueue, mailRow, writerOf } from '../mail/enqueue'
import { AuthConfigError, publicKeys } from './keys'
import {
  authenticate,
  authError,
  body,
  emailSchema,
  invalidEmail,
  overRequestLimit,
  sessionJson,
  userJson,
  userNotFound,
  weakPasswordError,
} from './gotrue'
import { adminRoutes } from './admin'
import { requireCaptcha } from './captcha'
import { featureRoutes, idTokenGrant, notFound, web3Grant } from './features'
import { gateSignIn, signInKeys } from './lockout'
import { pkceFields, pkceGrant, pkceOf } from './pkce'
import { autoconfirm, limitOf } from './settings'
import { weakPassword } from '../../client/schemas/auth'
import { hashPassword, verifyPassword } from './passwords'

/**
 * The built-in auth service, mounted at /auth/v1 when AUTH_URL is not set. It speaks the
 * Supabase Auth (GoTrue) HTTP API closely enough for @supabase/supabase-js to use it unchanged:
 * the same paths, JSON shapes, error shapes ({code, error_code, msg}) and status codes.
 */
export const authService = new Hono<AppEnv>()

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
  const { lang } = chooseLanguage(
    c.req.query('lang'),
    getCookie(c, LANG_STORAGE_KEY),
    c.req.header('Accept-Language'),
  )
  c.set('lang', lang)
  c.set('t', createTranslator(lang))
  await next()
})
// With a hosted service configured (AUTH_URL) the built-in one is not there at all.
authService.use(async (c, next) => (c.env.AUTH_URL ? c.notFound() : next()))
authService.use(limitBody(16 * 1024))

const SignupSchema = v.object({
  email: v.nullish(v.string(), ''),
  phone: v.nullish(v.string(), ''),
  password: v.nullish(v.string(), ''),
  data: v.nullish(v.record(v.string(), v.unknown())),
  ...pkceFields,
})
const PasswordGrantSchema = v.object({
  email: v.nullish(v.string(), ''),
  phone: v.nullish(v.string(), ''),
  password: v.nullish(v.string(), ''),
})
const RefreshGrantSchema = v.object({ refresh_token: v.pipe(v.string(), v.minLength(1)) })
const UpdateUserSchema = v.object({
  email: v.optional(emailSchema),
  password: v.optional(v.string()),
  data: v.nullish(v.record(v.string(), v.unknown())),
  nonce: v.optional(v.string()),
})

const badJson = (c: Context<AppEnv>) =>
  authError(c, 400, 'bad_json', 'Could not parse request body as JSON')

authService.get('/.well-known/jwks.json', async (c) => {
  c.header('Cache-Control', 'public, max-age=600')
  return c.json({ keys: await publicKeys(c.env) })
})

/** Sign-up, in GoTrue's order of checks (api.go's /signup route, signup.go). */
authService.post('/signup', requireCaptcha('sign-up'), async (c) => {
  const input = await body(c, SignupSchema)
  if (!input) return badJson(c)
  if (!input.email && !input.phone)
    return authError(c, 422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled')
  const limited = await overRequestLimit(c, 'AUTH_SIGNUP_LIMITER', 'signup')
  if (limited) return limited
  if (!input.password)
    return authError(c, 400, 'validation_failed', 'Signup requires a valid password')
  if (weakPassword(input.password)) return weakPasswordError(c)
  if (input.email && input.phone)
    return authError(
      c,
      400,
      'validation_failed',
      'Only an email address or phone number should be provided on signup.',
    )
  if (input.phone && input.code_challenge)
    return authError(c, 400, 'validation_failed', 'PKCE not supported for phone signups')
  // With confirmation off (AUTH_AUTOCONFIRM) a PKCE sign-up signs in at once, as GoTrue's does;
  // with it on, the e-mailed link confirms the address whatever the flow.
  const pkce = pkceOf(c, input)
  if (pkce instanceof Response) return pkce
  if (input.phone) return authError(c, 400, 'phone_provider_disabled', 'Phone signups are disabled')
  const email = v.safeParse(emailSchema, input.email)
  if (!email.success) return invalidEmail(c)
  const confirmed = autoconfirm(c.env)
  const user = await createUser(c.env.DB, {
    email: email.output,
    passwordHash: await hashPassword(input.password),
    metadata: input.data ?? {},
    confirmed,
  })
  if (!user) return authError(c, 422, 'user_already_exists', 'User already registered')
  if (!confirmed) {
    // As GoTrue with confirmations on: the user, no session, and a link to confirm the address.
    const { mailIds } = await createOneTimeToken(c.env.DB, user.id, 'signup', async ({ token }) => [
      await mailRow(writerOf(c), 'auth_confirm_signup', user.email, {
        link: signupLink(c, token),
      }),
    ])
    enqueue(c, mailIds)
    return c.json({ ...userJson(user), confirmation_sent_at: new Date().toISOString() })
  }
  const { session, refreshToken } = await createSession(c.env.DB, user.id)
  return c.json(await sessionJson(c, (await findUser(c.env.DB, user.id))!, session, refreshToken))
})

/** POST /token: password, refresh_token and pkce grants; id_token and web3 are off. */
authService.post('/token', async (c) => {
  switch (c.req.query('grant_type')) {
    case 'password':
      return passwordGrant(c)
    case 'refresh_token':
      return refreshGrant(c)
    case 'pkce':
      return pkceGrant(c)
    case 'id_token':
      return idTokenGrant(c)
    case 'web3':
      return web3Grant(c)
    default:
      return authError(c, 400, 'invalid_credentials', 'unsupported_grant_type')
  }
})

async function passwordGrant(c: Context<AppEnv>) {
  const limited = await overRequestLimit(c, 'AUTH_TOKEN_LIMITER', 'password')
  if (limited) return limited
  const input = await body(c, PasswordGrantSchema)
  if (!input) return badJson(c)
  if (input.email && input.phone)
    return authError(
      c,
      400,
      'validation_failed',
      'Only an email address or phone number should be provided on login.',
    )
  if (!input.email && input.phone)
    return authError(c, 422, 'phone_provider_disabled', 'Phone logins are disabled')
  if (!input.email) return authError(c, 400, 'validation_failed', 'missing email or phone')
  const email = v.safeParse(emailSchema, input.email)
  // no account can have an address that is not one
  if (!email.success) return authError(c, 400, 'invalid_credentials', 'Invalid login credentials')
  const keys = signInKeys(c, email.output)
  const refused = await gateSignIn(c, keys)
  if (refused) return refused
  const user = await findUserByEmail(c.env.DB, email.output)
  // The same work and the same answer whether or not the account exists.
  const ok = user
    ? await verifyPassword(input.password, user.password_hash)
    : (await hashPassword(input.password), false)
  if (!user || !ok) {
    await countFailure(c.env.DB, keys, limitOf(c.env, 'AUTH_FAILURE_WINDOW'))
    return authError(c, 400, 'invalid_credentials', 'Invalid login credentials')
  }
  if (!user.email_confirmed_at)
    return authError(c, 400, 'email_not_confirmed', 'Email not confirmed')
  const { session, refreshToken } = await createSession(c.env.DB, user.id)
  return c.json(await sessionJson(c, (await findUser(c.env.DB, user.id))!, session, refreshToken))
}

async function refreshGrant(c: Context<AppEnv>) {
  const input = await body(c, RefreshGrantSchema)
  if (!input) return authError(c, 400, 'validation_failed', 'Refresh token is missing')
  const rotated = await rotateRefreshToken(
    c.env.DB,
    input.refresh_token,
    limitOf(c.env, 'AUTH_REFRESH_REUSE_INTERVAL'),
    limitOf(c.env, 'AUTH_SESSION_MAX_AGE'),
  )
  if (!rotated.ok) {
    if (rotated.reason === 'expired')
      return authError(c, 400, 'session_expired', 'Invalid Refresh Token: Session Expired')
    if (rotated.reason === 'reused')
      return authError(c, 400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used')
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

authService.get('/user', async (c) => {
  const claims = await authenticate(c)
  if (claims instanceof Response) return claims
  const user = await findUser(c.env.DB, claims.sub)
  if (!user) return userNotFound(c)
  return c.json(userJson(user, await listFactors(c.env.DB, user.id)))
})

/**
 * PUT /user, in GoTrue's order (user.go UserUpdate): an account with a verified factor changes
 * its address or password only at aal2; a new password ends every other session; a new address
 * is only asked for here, and becomes the account's when its links are used (/verify).
 */
authService.put('/user', async (c) => {
  const claims = await authenticate(c)
  if (claims instanceof Response) return claims
  const input = await body(c, UpdateUserSchema)
  if (!input) return authError(c, 400, 'validation_failed', 'Invalid user attributes')
  if (input.password !== undefined && weakPassword(input.password)) return weakPasswordError(c)
  const current = await findUser(c.env.DB, claims.sub)
  if (!current) return userNotFound(c)
  const factors = await listFactors(c.env.DB, current.id)
  const newEmail = input.email && input.email !== current.email ? input.email : null
  const newPassword = input.password ? input.password : null
  if (
    (newEmail || newPassword) &&
    factors.some((f) => f.status === 'verified') &&
    claims.aal !== 'aal2'
  )
    return authError(
      c,
      401,
      'insufficient_aal',
      'AAL2 session is required to update email or password when MFA is enabled.',
    )
  if (newEmail && (await findUserByEmail(c.env.DB, newEmail)))
    return authError(
      c,
      422,
      'email_exists',
      'A user with this email address has already been registered',
    )
  if (newEmail) {
    const wait = emailChangeCooldown(c, current)
    if (wait) return wait
  }
  // a nonce from GET /reauthenticate, when the client sends one with a new password
  if (input.password !== undefined && input.nonce !== undefined) {
    const refused = await spendReauthentication(c, current.id, input.nonce)
    if (refused) return refused
  }
  if (input.data)
    await updateUser(c.env.DB, current.id, {
      metadata: { ...JSON.parse(current.user_metadata), ...input.data },
    })
  if (newPassword)
    await setPassword(c.env.DB, current.id, await hashPassword(newPassword), claims.session_id)
  if (newEmail) await askEmailChange(c, current, newEmail)
  const updated = (await findUser(c.env.DB, current.id))!
  return c.json(userJson(updated, factors))
})

authService.post('/logout', async (c) => {
  const claims = await authenticate(c)
  if (claims instanceof Response) return claims
  const scope = c.req.query('scope') ?? 'global'
  if (scope !== 'global' && scope !== 'local' && scope !== 'others')
    return authError(c, 400, 'validation_failed', 'Unsupported logout scope')
  await revokeSessions(c.env.DB, claims.sub, claims.session_id, scope)
  return c.body(null, 204)
})

authService.route('/', factorRoutes)
authService.route('/', oneTimeRoutes)
// before featureRoutes, whose /admin/* answers the rest of the admin API with 404
authService.route('/', adminRoutes)
authService.route('/', featureRoutes)
// Last: whatever else is asked under /auth/v1 answers GoTrue-style JSON, not the site's page.
authService.all('*', notFound)
