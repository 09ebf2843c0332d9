import type { Context } from 'hono'
import * as v from 'valibot'
import type { Bindings } from '../bindings'
import type { AppEnv } from '../env'

/**
 * Cloudflare Turnstile, checked on the server before any e-mail goes to an address a visitor
 * typed (docs/bots.md). It fails closed: no answer in time, an answer that is not JSON, a
 * refusal, a token made on another site or for another form, or one already spent, is a no.
 */

/** Cloudflare's documented test keys: they pass anything, and answer for "example.com". */
export const TEST_SITE_KEY = '1x00000000000000000000AA'
export const TEST_SECRET_KEY = '1x0000000000000000000000000000000AA'
const TEST_SECRETS = new Set([
  TEST_SECRET_KEY,
  '2x0000000000000000000000000000000AA',
  '3x0000000000000000000000000000000AA',
])
const TEST_HOSTNAME = 'example.com'

const SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js'
const VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify'
const DEFAULT_TIMEOUT_MS = 5000

/** The form a token was made for: the widget's `action`, checked against siteverify's answer. */
export type ChallengeAction =
  | 'welcome-popup'
  | 'newsletter'
  | 'guide'
  | 'booking'
  | 'data-request'
  | 'sign-up'
  | 'magic-link'
  | 'recover'
  | 'resend'

/** What a form posting the token names its field (the widget's own hidden input). */
export const TOKEN_FIELD = 'cf-turnstile-response'

export interface ChallengeSettings {
  /**
   * Off with TURNSTILE_ENABLED = "false": GoTrue's own client tests, say. `npm run deploy`
   * refuses it in production unless told --allow-no-challenge.
   */
  enabled: boolean
  siteKey: string
  secretKey: string
  scriptUrl: string
  verifyUrl: string
  timeoutMs: number
}

/** What each bindings object says, read once: pages ask in every component, the CSP per response. */
const read = new WeakMap<
  object,
  { settings: ChallengeSettings; props: ChallengeProps; origin: string }
>()

function challengeOf(env: Partial<Bindings>) {
  let known = read.get(env)
  if (!known) {
    const settings = settingsOf(env)
    const on = settings.enabled && Boolean(settings.siteKey)
    known = {
      settings,
      props: on ? { siteKey: settings.siteKey, scriptUrl: settings.scriptUrl } : null,
      origin: on ? originOf(settings.scriptUrl) : '',
    }
    read.set(env, known)
  }
  return known
}

function settingsOf(env: Partial<Bindings>): ChallengeSettings {
  const production = env.ENVIRONMENT === 'production'
  const timeout = Number(env.TURNSTILE_TIMEOUT_MS)
  return {
    enabled: env.TURNSTILE_ENABLED !== 'false',
    // outside production Cloudflare's test keys, which the local stand-in honours too
    siteKey: env.TURNSTILE_SITE_KEY || (production ? '' : TEST_SITE_KEY),
    secretKey: env.TURNSTILE_SECRET_KEY || (production ? '' : TEST_SECRET_KEY),
    scriptUrl: env.TURNSTILE_SCRIPT_URL || SCRIPT_URL,
    verifyUrl: env.TURNSTILE_VERIFY_URL || VERIFY_URL,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS,
  }
}

const originOf = (url: string) => {
  try {
    return new URL(url).origin
  } catch {
    return ''
  }
}

export const challengeSettings = (env: Partial<Bindings>) => challengeOf(env).settings

/** The origin the widget's script and frames come from: the CSP names it on a form's page. */
export const challengeOrigin = (env: Partial<Bindings>) => challengeOf(env).origin

/** What a page hands its forms' islands (serialisable): null when no challenge runs. */
export type ChallengeProps = { siteKey: string; scriptUrl: string } | null

export const challengeProps = (env: Partial<Bindings>) => challengeOf(env).props

export type ChallengeRefusal =
  /** No token came with the post. */
  | 'missing'
  /** siteverify said no (a bad or expired token: invalid-input-response, …). */
  | 'invalid'
  /** Already spent (timeout-or-duplicate). */
  | 'duplicate'
  /** siteverify did not answer in time, or answered something that is not its JSON. */
  | 'unavailable'
  /** A token made on another site's page. */
  | 'hostname'
  /** A token made for another form. */
  | 'action'
  /** The site has no secret to ask with (production without TURNSTILE_SECRET_KEY). */
  | 'unconfigured'

export type ChallengeResult =
  | { ok: true; skipped?: true }
  | { ok: false; reason: ChallengeRefusal; errorCodes: string[] }

const Answer = v.object({
  success: v.boolean(),
  'error-codes': v.optional(v.array(v.string()), []),
  hostname: v.optional(v.string()),
  action: v.optional(v.string()),
})

const refuse = (reason: ChallengeRefusal, errorCodes: string[] = []): ChallengeResult => ({
  ok: false,
  reason,
  errorCodes,
})

/**
 * Asks siteverify about one token, as Cloudflare recommends: the secret, the token, the
 * visitor's IP and an idempotency key (a retry of ours gets the same answer, not "spent"),
 * within a time limit.
 */
export async function verifyChallenge(
  c: Context<AppEnv>,
  token: string | undefined,
  action: ChallengeAction,
): Promise<ChallengeResult> {
  const s = challengeSettings(c.env)
  if (!s.enabled) return { ok: true, skipped: true }
  token = token?.trim()
  if (!token) return refuse('missing', ['missing-input-response'])
  // siteverify refuses tokens over 2048 characters; so do we, without asking
  if (token.length > 2048) return refuse('invalid', ['invalid-input-response'])
  if (!s.secretKey) {
    console.error('TURNSTILE_SECRET_KEY is not set: every challenge fails')
    return refuse('unconfigured')
  }
  const form = new FormData()
  form.set('secret', s.secretKey)
  form.set('response', token)
  const ip = c.req.header('CF-Connecting-IP')
  if (ip) form.set('remoteip', ip)
  form.set('idempotency_key', crypto.randomUUID())
  let answer: v.InferOutput<typeof Answer>
  try {
    const res = await fetch(s.verifyUrl, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(s.timeoutMs),
    })
    const parsed = v.safeParse(Answer, await res.json())
    if (!parsed.success) return refuse('unavailable', ['unreadable-answer'])
    answer = parsed.output
  } catch (err) {
    console.error('turnstile: siteverify did not answer', String(err))
    return refuse('unavailable', ['no-answer'])
  }
  const codes = answer['error-codes']
  if (!answer.success)
    return refuse(codes.includes('timeout-or-duplicate') ? 'duplicate' : 'invalid', codes)
  const test = TEST_SECRETS.has(s.secretKey)
  const expectedHost = test ? TEST_HOSTNAME : new URL(c.var.config.siteUrl).hostname
  if (answer.hostname !== expectedHost && answer.hostname !== new URL(c.req.url).hostname)
    return refuse('hostname', ['hostname-mismatch'])
  // Cloudflare's test keys answer without the widget's action
  if (answer.action !== action && !(test && !answer.action))
    return refuse('action', ['action-mismatch'])
  return { ok: true }
}

/** A token as a form posts it: the widget's hidden field, or a JSON body's `challengeToken`. */
export const tokenOf = (data: Record<string, unknown>) => {
  const token = data.challengeToken ?? data[TOKEN_FIELD]
  return typeof token === 'string' ? token : undefined
}
