import { Hono, type Context } from 'hono'
import { requireCaptcha } from './captcha'
import * as v from 'valibot'
import {
  confirmEmail,
  countFailure,
  createOneTimeCode,
  createOneTimeToken,
  createSession,
  createUser,
  findUser,
  findUserByEmail,
  sendCooldown,
  spendOneTimeCode,
  useOneTimeToken,
  type OneTimeTokenType,
  type UserRow,
  updateUser,
  revokeSessions,
} from './db'
import type { AppEnv } from '../env'
import { enqueue, mailRow, writerOf } from '../mail/enqueue'
import {
  authenticate,
  authError,
  body,
  emailSchema,
  invalidEmail,
  overRequestLimit,
  sessionJson,
  throttled,
  userNotFound,
} from './gotrue'
import { hashPassword } from './passwords'
import { SINGLE_CONFIRMATION, useChangeToken, type ChangeOutcome } from './email-change'
import { confirmLink, resetLink } from './links'
import { flowLink, pkceFields, pkceOf } from './pkce'
import { limitOf } from './settings'

/**
 * GoTrue's one-time flows in the built-in service: password recovery links (/recover), magic
 * links with a six-digit code (/otp), spending either (/verify), /resend, and reauthentication
 * codes (/reauthenticate, spent by PUT /user with a new password). A link or code works once,
 * within one hour; D1 keeps only hashes of them (worker/db/auth.ts).
 */
export const oneTimeRoutes = new Hono<AppEnv>()

/** GoTrue's default: one e-mail of a kind per user a minute. */
const EMAIL_COOLDOWN_SECONDS = 60

/** GoTrue's answer to a second e-mail of a kind within its cooldown. */
async function cooldown(c: Context<AppEnv>, userId: string, type: OneTimeTokenType) {
  const wait = await sendCooldown(c.env.DB, userId, type, EMAIL_COOLDOWN_SECONDS)
  return wait
    ? authError(
        c,
        429,
        'over_email_send_rate_limit',
        `For security purposes, you can only request this after ${wait} seconds.`,
      )
    : null
}

const RecoverSchema = v.object({ email: v.nullish(v.string(), ''), ...pkceFields })
const OtpSchema = v.object({
  email: v.nullish(v.string(), ''),
  phone: v.nullish(v.string(), ''),
  create_user: v.nullish(v.boolean(), true),
  data: v.nullish(v.record(v.string(), v.unknown())),
  ...pkceFields,
})
const tokenHash = v.pipe(v.string(), v.minLength(20), v.maxLength(200))
/** An e-mailed link's token: `token_hash` as GoTrue names it (it is hashed again here). */
const VerifyLinkSchema = v.object({
  type: v.picklist(['magiclink', 'email', 'signup', 'recovery', 'email_change']),
  token_hash: tokenHash,
})
/** An e-mailed six-digit code; any other string is simply a wrong code. */
const VerifyCodeSchema = v.object({
  type: v.picklist(['email', 'magiclink', 'recovery']),
  email: emailSchema,
  token: v.pipe(v.string(), v.trim(), v.maxLength(64)),
})
const VerifySchema = v.union([VerifyLinkSchema, VerifyCodeSchema])
const ResendSchema = v.object({
  type: v.picklist(['signup', 'email_change', 'sms', 'phone_change']),
  email: v.nullish(v.string(), ''),
  phone: v.nullish(v.string(), ''),
})

/** Which stored tokens each /verify type may spend. */
const LINK_TYPES = {
  magiclink: ['magiclink'],
  email: ['magiclink', 'signup'],
  signup: ['signup'],
  recovery: ['recovery'],
  email_change: ['email_change'],
} as const satisfies Record<v.InferOutput<typeof VerifyLinkSchema>['type'], OneTimeTokenType[]>
const CODE_TYPES = {
  email: ['magiclink', 'signup'],
  magiclink: ['magiclink'],
  recovery: ['recovery'],
} as const satisfies Record<v.InferOutput<typeof VerifyCodeSchema>['type'], OneTimeTokenType[]>

/** An unusable password for accounts made by /otp: nobody knows it, /recover can set one. */
const unusablePasswordHash = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return hashPassword(btoa(String.fromCharCode(...bytes)))
}

const badJson = (c: Context<AppEnv>) =>
  authError(c, 400, 'bad_json', 'Could not parse request body as JSON')

oneTimeRoutes.post('/recover', requireCaptcha('recover'), async (c) => {
  const limited = await overRequestLimit(c, 'AUTH_EMAIL_LIMITER', 'recover')
  if (limited) return limited
  const input = await body(c, RecoverSchema)
  if (!input) return badJson(c)
  if (!input.email)
    return authError(c, 400, 'validation_failed', 'Password recovery requires an email')
  const email = v.safeParse(emailSchema, input.email)
  if (!email.success) return invalidEmail(c)
  const pkce = pkceOf(c, input)
  if (pkce instanceof Response) return pkce
  const user = await findUserByEmail(c.env.DB, email.output)
  // The same answer whether or not the account exists: nobody learns who has one.
  // One e-mail a minute per account; a request within it hears the same and sends nothing.
  if (user && !(await sendCooldown(c.env.DB, user.id, 'recovery', EMAIL_COOLDOWN_SECONDS))) {
    const { mailIds } = await createOneTimeToken(
      c.env.DB,
      user.id,
      'recovery',
      async ({ token }) => {
        const flow = pkce
          ? await flowLink(c, pkce, { userId: user.id, token, kind: 'recovery' })
          : null
        const link = flow ? flow.link : resetLink(c, token)
        const mail = await mailRow(writerOf(c), 'auth_recovery', user.email, { link })
        return flow ? [flow.insert, mail] : [mail]
      },
    )
    enqueue(c, mailIds)
  }
  return c.json({})
})

/** Passwordless sign-in: one e-mail with a magic link and the same sign-in as a code. */
oneTimeRoutes.post('/otp', requireCaptcha('magic-link'), async (c) => {
  const limited = await overRequestLimit(c, 'AUTH_EMAIL_LIMITER', 'otp')
  if (limited) return limited
  const input = await body(c, OtpSchema)
  if (!input) return badJson(c)
  if (input.email && input.phone)
    return authError(
      c,
      400,
      'validation_failed',
      'Only an email address or phone number should be provided',
    )
  const pkce = pkceOf(c, input)
  if (pkce instanceof Response) return pkce
  if (input.phone)
    return input.create_user
      ? authError(c, 400, 'phone_provider_disabled', 'Unsupported phone provider')
      : // no account has a phone number, so none may sign in by one
        authError(c, 422, 'otp_disabled', 'Signups not allowed for otp')
  if (!input.email)
    return authError(c, 400, 'validation_failed', 'One of email or phone must be set')
  const email = v.safeParse(emailSchema, input.email)
  if (!email.success) return invalidEmail(c)
  // Hashed whether or not it is needed, so an existing account answers as slowly as a new one.
  const passwordHash = await unusablePasswordHash()
  let user = await findUserByEmail(c.env.DB, email.output)
  if (!user) {
    if (!input.create_user) return authError(c, 422, 'otp_disabled', 'Signups not allowed for otp')
    user =
      (await createUser(c.env.DB, {
        email: email.output,
        passwordHash,
        metadata: input.data ?? {},
      })) ??
      // signed up at the same moment by another request: that account it is
      (await findUserByEmail(c.env.DB, email.output))
    if (!user) throw new Error('account neither created nor found')
  }
  const wait = await cooldown(c, user.id, 'magiclink')
  if (wait) return wait
  const { mailIds } = await createOneTimeCode(
    c.env.DB,
    user.id,
    'magiclink',
    async ({ token, code }) => {
      // with PKCE the link carries an auth code for the client that asked, not the token itself
      const flow = pkce
        ? await flowLink(c, pkce, { userId: user.id, token, kind: 'magiclink' })
        : null
      const link = flow ? flow.link : confirmLink(c, token)
      const mail = await mailRow(writerOf(c), 'auth_magic_link', user.email, { link, code: code! })
      return flow ? [flow.insert, mail] : [mail]
    },
  )
  enqueue(c, mailIds)
  return c.json({})
})

oneTimeRoutes.post('/verify', async (c) => {
  // no account has a phone number, so no phone code is ever valid
  if (await body(c, v.object({ phone: v.pipe(v.string(), v.minLength(1)), type: v.string() })))
    return authError(c, 403, 'otp_expired', 'Token has expired or is invalid')
  const input = await body(c, VerifySchema)
  if (!input)
    return authError(
      c,
      400,
      'validation_failed',
      'Verify requires either a token_hash, or an email and a token, and a supported type',
    )
  let user: UserRow | null
  let change: ChangeOutcome | null = null
  if ('token_hash' in input) {
    const spent = await useOneTimeToken(c.env.DB, input.token_hash, LINK_TYPES[input.type])
    user = spent ? await findUser(c.env.DB, spent.user_id) : null
    if (!user) return authError(c, 403, 'otp_expired', 'Email link is invalid or has expired')
    if (input.type === 'email_change') change = await useChangeToken(c, user, spent!.relates_to)
  } else {
    // six digits can be guessed: five wrong codes per e-mail and the address waits 15 minutes
    const keys = [`otp:${input.email}`]
    const tooMany = await throttled(c, keys, 'verification attempts')
    if (tooMany) return tooMany
    user = await findUserByEmail(c.env.DB, input.email)
    // the same query for an unknown address, which matches nothing
    const spent = await spendOneTimeCode(
      c.env.DB,
      user?.id ?? '',
      input.token,
      CODE_TYPES[input.type],
    )
    if (!user || !spent) {
      await countFailure(c.env.DB, keys, limitOf(c.env, 'AUTH_FAILURE_WINDOW'))
      return authError(c, 403, 'otp_expired', 'Token has expired or is invalid')
    }
  }
  if (change) {
    // the first of a secure change's two links: no session, GoTrue's message
    if ('waiting' in change) return c.json({ msg: SINGLE_CONFIRMATION, code: '200' })
    if ('refused' in change)
      return change.refused === 'email_exists'
        ? authError(
            c,
            422,
            'email_exists',
            'A user with this email address has already been registered',
          )
        : authError(c, 403, 'otp_expired', 'Email link is invalid or has expired')
    user = change.done
  }
  const method = input.type === 'recovery' ? 'recovery' : 'otp'
  if (!user.email_confirmed_at) {
    // An address confirmed by a sign-in or recovery link, not by its sign-up's: whoever signed
    // up may not own it, so the password they chose and their sessions end here.
    if (!('token_hash' in input && input.type === 'signup')) {
      await updateUser(c.env.DB, user.id, { passwordHash: await unusablePasswordHash() })
      await revokeSessions(c.env.DB, user.id, '', 'global')
    }
    await confirmEmail(c.env.DB, user.id)
    user = (await findUser(c.env.DB, user.id))!
  }
  const { session, refreshToken } = await createSession(c.env.DB, user.id, method)
  return c.json(await sessionJson(c, user, session, refreshToken))
})

/**
 * GoTrue resends a pending sign-up confirmation or e-mail change. The built-in service does
 * not resend yet: a sign-up whose confirmation was lost can be finished through a sign-in link
 * (/otp), which confirms the address. It answers {} and sends nothing, known address or not.
 */
oneTimeRoutes.post('/resend', requireCaptcha('resend'), async (c) => {
  const input = await body(c, v.object({ ...ResendSchema.entries, type: v.string() }))
  if (!input) return badJson(c)
  if (!v.is(ResendSchema.entries.type, input.type))
    return authError(
      c,
      400,
      'validation_failed',
      'Missing one of these types: signup, email_change, sms, phone_change',
    )
  if (!input.email && input.type === 'signup')
    return authError(c, 400, 'validation_failed', 'Type provided requires an email address')
  if (!input.phone && input.type === 'sms')
    return authError(c, 400, 'validation_failed', 'Type provided requires a phone number')
  if (input.email && input.phone)
    return authError(
      c,
      400,
      'validation_failed',
      'Only an email address or phone number should be provided.',
    )
  if (input.phone) return authError(c, 400, 'phone_provider_disabled', 'Phone logins are disabled')
  if (!input.email)
    return authError(c, 400, 'validation_failed', 'Missing email address or phone number')
  if (!v.is(emailSchema, input.email)) return invalidEmail(c)
  return c.json({})
})

/** A six-digit nonce e-mailed to the signed-in user, for PUT /user to change the password. */
oneTimeRoutes.get('/reauthenticate', async (c) => {
  const claims = await authenticate(c)
  if (claims instanceof Response) return claims
  const user = await findUser(c.env.DB, claims.sub)
  if (!user) return userNotFound(c)
  const wait = await cooldown(c, user.id, 'reauthentication')
  if (wait) return wait
  const { mailIds } = await createOneTimeCode(
    c.env.DB,
    user.id,
    'reauthentication',
    async ({ code }) => [
      await mailRow(writerOf(c), 'auth_reauthentication', user.email, { code: code! }),
    ],
  )
  enqueue(c, mailIds)
  return c.json({})
})

/**
 * PUT /user's check of a nonce sent with a new password: spends the user's reauthentication
 * code and answers null, or answers GoTrue's error. Wrong nonces are throttled per user, or a
 * stolen access token could try all million codes.
 */
export async function spendReauthentication(c: Context<AppEnv>, userId: string, nonce: string) {
  const keys = [`reauth:${userId}`]
  const tooMany = await throttled(c, keys, 'verification attempts')
  if (tooMany) return tooMany
  if (await spendOneTimeCode(c.env.DB, userId, nonce.trim(), ['reauthentication'])) return null
  await countFailure(c.env.DB, keys, limitOf(c.env, 'AUTH_FAILURE_WINDOW'))
  return authError(c, 400, 'reauthentication_not_valid', 'Verification code is invalid or expired')
}
