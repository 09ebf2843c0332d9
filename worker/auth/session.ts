import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { createLocalJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose'
import { httpOnlyCookie, isHttps } from '../cookies'
import type { AppEnv } from '../env'
import { authSettings } from '../config'
import { authClient } from './client'
import { needsSecondStep, toSecondStep } from './second-step'
import type { AccessClaims, TokenSet } from '../auth-types'

export const ACCESS_COOKIE = 'sb-access-token'
export const REFRESH_COOKIE = 'sb-refresh-token'
const THIRTY_DAYS = 60 * 60 * 24 * 30

/** Allowed token algorithm: the built-in provider signs ES256, as hosted Supabase projects do. */
const ALG = 'ES256'
/** How long a fetched key set is used before it is asked for again. */
const KEYS_MAX_AGE_MS = 10 * 60_000

// The provider's public keys, per isolate and provider. A token with a kid we do not know yet
// (a key rotation) asks again at most every 30 s.
// The imported key set is kept with them, so a page verifies without importing a key again.
const keyCache = new Map<string, { verifyKey: JWTVerifyGetKey; fetchedAt: number }>()

async function keySet(c: Context<AppEnv>): Promise<JWTVerifyGetKey> {
  const { issuer, url } = authSettings(c.env, c.var.config.siteUrl)
  // the built-in provider's keys follow from this deployment's key secrets
  const cacheKey = url
    ? `${url}|${issuer}`
    : [issuer, c.env.AUTH_SIGNING_KEY, c.env.AUTH_PREVIOUS_SIGNING_KEY].join('|')
  const load = async () => {
    const res = await authClient(c).jwks()
    if (!res.ok) throw new errors.JWKSTimeout('the key set is out of reach')
    const entry = { verifyKey: createLocalJWKSet(res.data), fetchedAt: Date.now() }
    keyCache.set(cacheKey, entry)
    return entry
  }
  let entry = keyCache.get(cacheKey)
  if (!entry) entry = await load()
  // an old key set still verifies this page; a fresh one is fetched after the answer
  else if (Date.now() - entry.fetchedAt > KEYS_MAX_AGE_MS)
    c.executionCtx.waitUntil(load().catch(() => undefined))
  const { verifyKey, fetchedAt } = entry
  return async (header, token) => {
    try {
      return await verifyKey(header, token)
    } catch (err) {
      if (!(err instanceof errors.JWKSNoMatchingKey) || Date.now() - fetchedAt < 30_000) throw err
      return (await load()).verifyKey(header, token)
    }
  }
}

export function rememberSession(c: Context<AppEnv>, tokens: TokenSet) {
  // HttpOnly: scripts on the page (ours, or an injected one) can never read the tokens.
  setCookie(c, ACCESS_COOKIE, tokens.access_token, httpOnlyCookie(c, '/', THIRTY_DAYS))
  setCookie(c, REFRESH_COOKIE, tokens.refresh_token, httpOnlyCookie(c, '/', THIRTY_DAYS))
}

export function forgetSession(c: Context<AppEnv>) {
  deleteCookie(c, ACCESS_COOKIE, { path: '/', secure: isHttps(c) })
  deleteCookie(c, REFRESH_COOKIE, { path: '/', secure: isHttps(c) })
}

/**
 * The account page and every account action: a signature is not enough here, the provider must
 * confirm the session is still live (as supabase's getUser() does), so a signed-out token
 * opens nothing. A provider out of reach lets the page say so rather than sign anyone out.
 */
export const signedInOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = c.var.accessToken
  if (!token) return c.redirect('/auth?next=/account', 303)
  const confirmed = await authClient(c).user(token)
  if (!confirmed.ok && confirmed.status < 500) {
    forgetSession(c)
    return c.redirect('/auth?next=/account', 303)
  }
  if (confirmed.ok) {
    // An account with an authenticator app opens none of this on its password alone (aal1): a
    // copied cookie, another device's older session. The code first, as at the sign-in form.
    if (needsSecondStep(confirmed.data, token))
      return toSecondStep(
        c,
        {
          access_token: token,
          refresh_token: getCookie(c, REFRESH_COOKIE) ?? '',
          user: confirmed.data,
        },
        c.req.method === 'GET' ? c.req.path : '/account',
      )
    c.set('account', confirmed.data)
  }
  await next()
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** What a refresh came to: new tokens, a token the provider refuses, or no answer in time. */
type Refreshed = { tokens: TokenSet } | { refused: true } | { unreachable: true }

/**
 * One refresh, retried with backoff from 200 ms when the provider answers 5xx (SPEC §9); a
 * time-out is not retried, so an expired cookie costs a page at most one time limit.
 */
async function refresh(c: Context<AppEnv>, refreshToken: string): Promise<Refreshed> {
  for (let attempt = 0, delay = 200; ; attempt++, delay *= 2) {
    const res = await authClient(c).refresh(refreshToken)
    if (res.ok) return { tokens: res.data }
    if (res.status < 500) return { refused: true }
    if (res.status === 504 || attempt === 2) return { unreachable: true }
    await sleep(delay)
  }
}

// Requests of one visitor that arrive together (two tabs, a beacon, the 30 s check) carry the
// same refresh token: while one refresh is on its way the others wait for it instead of spending
// the token against each other. Those that come after it rely on the provider's reuse interval.
const inFlight = new Map<string, Promise<Refreshed>>()

function sharedRefresh(c: Context<AppEnv>, refreshToken: string) {
  let pending = inFlight.get(refreshToken)
  if (!pending) {
    pending = refresh(c, refreshToken).finally(() => inFlight.delete(refreshToken))
    inFlight.set(refreshToken, pending)
  }
  return pending
}

/** Refresh this long before expiry, so the 30 s check in the browser never meets a dead token. */
const REFRESH_MARGIN_SECONDS = 60

async function verify(c: Context<AppEnv>, token: string): Promise<AccessClaims> {
  const { issuer, audience } = authSettings(c.env, c.var.config.siteUrl)
  const { payload } = await jwtVerify(token, await keySet(c), {
    algorithms: [ALG],
    issuer,
    audience,
  })
  return payload as JWTPayload & AccessClaims
}

/**
 * The verified claims of this request's access token (its role, its assurance level), or null:
 * for the few places that need more than who is signed in (the desk's staff check). The cookie's
 * token was verified once by session(); only a token refreshed on this request is verified here.
 */
export async function accessClaims(c: Context<AppEnv>): Promise<AccessClaims | null> {
  if (c.var.claims) return c.var.claims
  const token = c.var.accessToken
  if (!token) return null
  try {
    const claims = await verify(c, token)
    c.set('claims', claims)
    return claims
  } catch {
    return null
  }
}

async function renew(c: Context<AppEnv>, refreshToken: string) {
  const result = await sharedRefresh(c, refreshToken)
  if ('tokens' in result) {
    const { tokens } = result
    rememberSession(c, tokens)
    c.set('user', { id: tokens.user.id, email: tokens.user.email })
    c.set('accessToken', tokens.access_token)
    // the old token's claims are not the new one's
    c.set('claims', undefined)
  } else if ('refused' in result) forgetSession(c)
  // out of reach: a token still valid serves this page; an expired one leaves it signed out
  // (it says so), cookies kept for the next
  else if (!c.var.user) c.set('sessionUnchecked', true)
}

/**
 * Who is signed in, for every page: the access token verified against the service's JWKS
 * (issuer, audience, expiry, ES256 only). An expired token is refreshed once. Anything else
 * wrong — a bad token, the key set out of reach — renders the page signed out, never an error;
 * where the session could not be checked at all, the page says the account is unavailable.
 */
export function session(): MiddlewareHandler<AppEnv> {
  return async function session(c, next) {
    const access = getCookie(c, ACCESS_COOKIE)
    const refreshToken = getCookie(c, REFRESH_COOKIE)
    if (access) {
      try {
        const claims = await verify(c, access)
        c.set('user', { id: String(claims.sub), email: String(claims.email) })
        c.set('accessToken', access)
        c.set('claims', claims)
        if (refreshToken && Number(claims.exp) - Date.now() / 1000 < REFRESH_MARGIN_SECONDS)
          await renew(c, refreshToken)
      } catch (err) {
        if (err instanceof errors.JWTExpired && refreshToken) {
          await renew(c, refreshToken)
        } else if (err instanceof errors.JOSEError && !(err instanceof errors.JWKSTimeout)) {
          // a token we will never accept: drop it
          forgetSession(c)
        } else {
          // the key set was out of reach: signed out for this page (it says so), cookies kept
          c.set('sessionUnchecked', true)
        }
      }
    }
    c.set('signedIn', Boolean(c.var.user))
    await next()
  }
}
