import type { Context } from 'hono'
import * as v from 'valibot'
import type { AppEnv } from '../env'
import {
  flowStateInsert,
  createSession,
  findFlowState,
  findUser,
  spendFlowState,
  type FlowStateRow,
} from './db'
import { authError, sessionJson } from './gotrue'

/**
 * PKCE (RFC 7636), the flow Supabase's server-side helpers use by default. A client that asks
 * for a sign-in or recovery e-mail with a `code_challenge` gets a link that carries an auth code
 * (to its `redirect_to`); POST /token?grant_type=pkce exchanges that code, with the verifier
 * only the client knows, for a session. Checks and answers are GoTrue's (internal/api/pkce.go,
 * token.go, internal/security/pkce.go).
 */

/** The PKCE fields of /signup, /otp and /recover bodies. */
export const pkceFields = {
  code_challenge: v.nullish(v.string(), ''),
  code_challenge_method: v.nullish(v.string(), ''),
}

export interface Pkce {
  challenge: string
  method: 's256' | 'plain'
}

/** The request's challenge and method; null without PKCE; or GoTrue's 400. */
export function pkceOf(
  c: Context<AppEnv>,
  input: { code_challenge: string; code_challenge_method: string },
): Pkce | null | Response {
  const { code_challenge: challenge, code_challenge_method: asked } = input
  const invalid = (msg: string) => authError(c, 400, 'validation_failed', msg)
  if (!challenge !== !asked)
    return invalid('PKCE flow requires code_challenge_method and code_challenge')
  if (!challenge) return null
  if (challenge.length < 43 || challenge.length > 128)
    return invalid('code challenge has to be between 43 and 128 characters')
  if (!/^[a-zA-Z._~0-9-]+$/.test(challenge))
    return invalid(
      'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
    )
  const method = asked.toLowerCase()
  if (method !== 's256' && method !== 'plain')
    return invalid(`unsupported code_challenge method ${JSON.stringify(asked)}`)
  return { challenge, method }
}

/**
 * Where a PKCE e-mail's link leads, with its auth code: the `redirect_to` the client asked for
 * when it is on this site, else the site itself (GoTrue's fallback, its SITE_URL).
 */
function codeLink(c: Context<AppEnv>, code: string) {
  const site = new URL(`${c.var.config.siteUrl}/`)
  let target = site
  const asked = c.req.query('redirect_to')
  if (asked && URL.canParse(asked, site.href) && new URL(asked, site).origin === site.origin)
    target = new URL(asked, site)
  target.searchParams.set('code', code)
  return target.href
}

/** A flow for the e-mail whose one-time token is `token`; the link the e-mail carries. */
export async function flowLink(
  c: Context<AppEnv>,
  pkce: Pkce,
  f: { userId: string; token: string; kind: FlowStateRow['authentication_method'] },
) {
  const { code, insert } = await flowStateInsert(c.env.DB, { ...f, ...pkce })
  return { link: codeLink(c, code), insert }
}

const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

/** Whether the verifier answers the flow's challenge: S256 (SHA-256, base64url) or plain. */
async function verifierMatches(flow: FlowStateRow, verifier: string) {
  const expected =
    flow.code_challenge_method === 's256'
      ? base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)))
      : verifier
  const a = new TextEncoder().encode(expected)
  const b = new TextEncoder().encode(flow.code_challenge)
  // workerd's constant-time comparison (not in the DOM typings this project also loads)
  const subtle = crypto.subtle as unknown as {
    timingSafeEqual(a: ArrayBufferView, b: ArrayBufferView): boolean
  }
  return a.byteLength === b.byteLength && subtle.timingSafeEqual(a, b)
}

const PkceGrantSchema = v.object({
  auth_code: v.nullish(v.string(), ''),
  code_verifier: v.nullish(v.string(), ''),
})

/** POST /token?grant_type=pkce: the auth code and its verifier, for a session (once). */
export async function pkceGrant(c: Context<AppEnv>) {
  const input = v.safeParse(PkceGrantSchema, await c.req.json().catch(() => undefined))
  if (!input.success) return authError(c, 400, 'bad_json', 'Could not parse request body as JSON')
  const { auth_code: authCode, code_verifier: verifier } = input.output
  if (!authCode || !verifier)
    return authError(
      c,
      400,
      'validation_failed',
      'invalid request: both auth code and code verifier should be non-empty',
    )
  const flow = await findFlowState(c.env.DB, authCode)
  const notFound = () =>
    authError(c, 404, 'flow_state_not_found', 'invalid flow state, no valid flow state found')
  if (!flow || flow.spent) return notFound()
  if (flow.expired)
    return authError(c, 422, 'flow_state_expired', 'invalid flow state, flow state has expired')
  if (!(await verifierMatches(flow, verifier)))
    return authError(
      c,
      400,
      'bad_code_verifier',
      'code challenge does not match previously saved code verifier',
    )
  const user = await findUser(c.env.DB, flow.user_id)
  if (!user || !(await spendFlowState(c.env.DB, flow.id))) return notFound()
  const method = flow.authentication_method === 'recovery' ? 'recovery' : 'otp'
  const { session, refreshToken } = await createSession(c.env.DB, user.id, method)
  return c.json(await sessionJson(c, user, session, refreshToken))
}
