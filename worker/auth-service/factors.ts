import { Hono } from 'hono'
import { Secret, TOTP } from 'otpauth'
import { renderSVG } from 'uqr'
import * as v from 'valibot'
import {
  acceptCode,
  CHALLENGE_SECONDS,
  countFailure,
  createChallenge,
  createFactor,
  deleteFactor,
  findFactor,
  findUser,
  listFactors,
  openChallenge,
  type FactorRow,
} from './db'
import type { AppEnv } from '../env'
import { authenticate, authError, body, sessionJson, throttled } from './gotrue'
import { limitOf } from './settings'

/**
 * Multi-factor authentication of the built-in service (GoTrue's /factors API): TOTP factors
 * (RFC 6238: SHA-1, six digits, 30 s steps, one step either side accepted), challenges, and the
 * aal2 session a verified code gives.
 */
export const factorRoutes = new Hono<AppEnv>()

const MAX_FACTORS = 10

const EnrollSchema = v.object({
  factor_type: v.string(),
  friendly_name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
  issuer: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
})
const VerifySchema = v.object({
  challenge_id: v.pipe(v.string(), v.uuid()),
  code: v.pipe(v.string(), v.trim(), v.regex(/^\d{6}$/)),
})

const totp = (factor: Pick<FactorRow, 'secret'>, label = '', issuer = '') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: 30, secret: factor.secret })

factorRoutes.post('/factors', async (c) => {
  const claims = await authenticate(c)
  if (claims instanceof Response) return claims
  const input = await body(c, EnrollSchema)
  // phone and WebAuthn factors are switched off, as GoTrue answers then (mfa.go EnrollFactor)
  if (input?.factor_type === 'phone')
    return authError(c, 422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone')
  if (input?.factor_type === 'webauthn')
    return authError(
      c,
      422,
      'mfa_webauthn_enroll_not_enabled',
      'MFA enroll is disabled for WebAuthn',
    )
  if (input?.factor_type !== 'totp')
    return authError(
      c,
      400,
      'validation_failed',
      'factor_type needs to be totp, phone, or webauthn',
    )
  const factors = await listFactors(c.env.DB, claims.sub)
  if (factors.some((f) => f.status === 'verified') && claims.aal !== 'aal2')
    return authError(c, 403, 'insufficient_aal', 'AAL2 required to enroll a new factor')
  if (factors.length >= MAX_FACTORS)
    return authError(
      c,
      422,
      'too_many_enrolled_mfa_factors',
      'Maximum number of verified factors reached, unenroll to continue',
    )
  const factor = await createFactor(c.env.DB, {
    userId: claims.sub,
    friendlyName: input.friendly_name || null,
    secret: new Secret({ size: 20 }).base32,
  })
  if (!factor)
    return authError(
      c,
      422,
      'mfa_factor_name_conflict',
      `A factor with the friendly name "${input.friendly_name}" for this user already exists`,
    )
  const issuer = input.issuer || c.var.t('meta.site_name')
  const uri = totp(factor, String(claims.email), issuer).toString()
  return c.json({
    id: factor.id,
    type: 'totp',
    friendly_name: factor.friendly_name ?? undefined,
    // an SVG document, as GoTrue sends it (supabase-js makes it a data: URL)
    totp: { qr_code: renderSVG(uri), secret: factor.secret, uri },
  })
})

factorRoutes.post('/factors/:id/challenge', async (c) => {
  const claims = await authenticate(c)
  if (claims instanceof Response) return claims
  const factor = await findFactor(c.env.DB, claims.sub, c.req.param('id'))
  if (!factor) return authError(c, 404, 'mfa_factor_not_found', 'Factor not found')
  const challenge = await createChallenge(
    c.env.DB,
    factor.id,
    c.req.header('CF-Connecting-IP') ?? null,
  )
  return c.json({
    id: challenge.id,
    type: 'totp',
    expires_at: Math.floor(Date.parse(challenge.created_at) / 1000) + CHALLENGE_SECONDS,
  })
})

factorRoutes.post('/factors/:id/verify', async (c) => {
  const claims = await authenticate(c)
  if (claims instanceof Response) return claims
  const factor = await findFactor(c.env.DB, claims.sub, c.req.param('id'))
  if (!factor) return authError(c, 404, 'mfa_factor_not_found', 'Factor not found')
  const input = await body(c, VerifySchema)
  if (!input)
    return authError(c, 400, 'validation_failed', 'A challenge_id and a six-digit code are needed')
  const throttle = [`totp:${factor.id}`]
  const tooMany = await throttled(c, throttle, 'wrong codes')
  if (tooMany) return tooMany
  if (!(await openChallenge(c.env.DB, input.challenge_id, factor.id)))
    return authError(
      c,
      422,
      'mfa_challenge_expired',
      'MFA challenge has expired, verify against another challenge or create a new challenge.',
    )
  const delta = totp(factor).validate({ token: input.code, window: 1 })
  const accepted =
    delta === null
      ? null
      : await acceptCode(c.env.DB, {
          factorId: factor.id,
          challengeId: input.challenge_id,
          step: Math.floor(Date.now() / 30_000) + delta,
          sessionId: claims.session_id,
        })
  if (!accepted) {
    await countFailure(c.env.DB, throttle, limitOf(c.env, 'AUTH_FAILURE_WINDOW'))
    return authError(c, 422, 'mfa_verification_failed', 'Invalid TOTP code entered')
  }
  const user = (await findUser(c.env.DB, claims.sub))!
  return c.json(await sessionJson(c, user, accepted.session, accepted.refreshToken))
})

factorRoutes.delete('/factors/:id', async (c) => {
  const claims = await authenticate(c)
  if (claims instanceof Response) return claims
  const factor = await findFactor(c.env.DB, claims.sub, c.req.param('id'))
  if (!factor) return authError(c, 404, 'mfa_factor_not_found', 'Factor not found')
  if (factor.status === 'verified' && claims.aal !== 'aal2')
    return authError(c, 422, 'insufficient_aal', 'AAL2 required to unenroll verified factor')
  await deleteFactor(c.env.DB, factor.id)
  return c.json({ id: factor.id })
})
