import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  jwtVerify,
  type JWTVerifyGetKey,
} from 'jose'
import { httpOnlyCookie, isHttps } from '../cookies'
import type { AppEnv } from '../env'
import { ALG, publicKeys } from '../auth-service/keys'
import { audienceOf, issuerOf } from '../auth-service/gotrue'
import { authService } from '../auth-service/app'

export const ACCESS_COOKIE = 'sb-access-token'
export const REFRESH_COOKIE = 'sb-refresh-token'
const THIRTY_DAYS = 60 * 60 * 24 * 30

export interface SessionUser {
  id: string
  email: string
}

export interface TokenSet {
  access_token: string
  refresh_token: string
  expires_in: number
  user: { id: string; email: string }
}

/**
 * Calls the auth service: the built-in one in-process, or AUTH_URL over HTTP with its apikey.
 * Either way the answer is a GoTrue HTTP response.
 */
export function callAuth(
  c: Context<AppEnv>,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const headers = new Headers(init.headers)
  headers.set('Content-Type', 'application/json')
  if (c.env.AUTH_URL) {
    headers.set('apikey', c.env.AUTH_API_KEY ?? '')
    return fetch(c.env.AUTH_URL.replace(/\/$/, '') + path, { ...init, headers })
  }
  headers.set('CF-Connecting-IP', c.req.header('CF-Connecting-IP') ?? 'unknown')
  headers.set('Accept-Language', c.var.lang)
  // the site's own origin, so the service issues tokens for the issuer the pages verify
  return Promise.resolve(
    authService.request(new URL(path, c.req.url).href, { ...init, headers }, c.env, c.executionCtx),
  )
}

// Remote key sets are cached per isolate (jose also caches the keys and rate-limits refetches).
const remoteKeySets = new Map<string, JWTVerifyGetKey>()

async function keySet(c: Context<AppEnv>): Promise<JWTVerifyGetKey> {
  if (!c.env.AUTH_URL) return createLocalJWKSet({ keys: await publicKeys(c.env) })
  const url = c.env.AUTH_URL.replace(/\/$/, '') + '/.well-known/jwks.json'
  if (!remoteKeySets.has(url))
    remoteKeySets.set(
      url,
      createRemoteJWKSet(new URL(url), { cooldownDuration: 30_000, cacheMaxAge: 600_000 }),
    )
  return remoteKeySets.get(url)!
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

export const signedInOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.accessToken) return c.redirect('/auth?next=/account', 303)
  await next()
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** One refresh, retried with exponential backoff from 200 ms when the service stumbles (SPEC §9). */
async function refresh(c: Context<AppEnv>, refreshToken: string): Promise<TokenSet | null> {
  for (let attempt = 0, delay = 200; attempt < 3; attempt++, delay *= 2) {
    try {
      const res = await callAuth(c, '/token?grant_type=refresh_token', {
        method: 'POST',
        body: JSON.stringify({ refresh_token: refreshToken }),
      })
      if (res.ok) return (await res.json()) as TokenSet
      if (res.status < 500) return null
    } catch {
      // network trouble: try again
    }
    if (attempt < 2) await sleep(delay)
  }
  return null
}

/** Refresh this long before expiry, so the 30 s check in the browser never meets a dead token. */
const REFRESH_MARGIN_SECONDS = 60

async function verify(
  c: Context<AppEnv>,
  token: string,
): Promise<SessionUser & { expiresAt: number }> {
  const { payload } = await jwtVerify(token, await keySet(c), {
    algorithms: [ALG],
    issuer: issuerOf(c),
    audience: audienceOf(c),
  })
  return { id: String(payload.sub), email: String(payload.email), expiresAt: Number(payload.exp) }
}

async function renew(c: Context<AppEnv>, refreshToken: string) {
  const tokens = await refresh(c, refreshToken)
  if (tokens) {
    rememberSession(c, tokens)
    c.set('user', { id: tokens.user.id, email: tokens.user.email })
    c.set('accessToken', tokens.access_token)
  } else forgetSession(c)
}

/**
 * Who is signed in, for every page: the access token verified against the service's JWKS
 * (issuer, audience, expiry, ES256 only). An expired token is refreshed once. Anything else
 * wrong — a bad token, the key set out of reach — renders the page signed out, never an error.
 */
export function session(): MiddlewareHandler<AppEnv> {
  return async function session(c, next) {
    const access = getCookie(c, ACCESS_COOKIE)
    const refreshToken = getCookie(c, REFRESH_COOKIE)
    if (access) {
      try {
        const { expiresAt, ...user } = await verify(c, access)
        c.set('user', user)
        c.set('accessToken', access)
        if (refreshToken && expiresAt - Date.now() / 1000 < REFRESH_MARGIN_SECONDS)
          await renew(c, refreshToken)
      } catch (err) {
        if (err instanceof errors.JWTExpired && refreshToken) {
          await renew(c, refreshToken)
        } else if (err instanceof errors.JOSEError && !(err instanceof errors.JWKSTimeout)) {
          // a token we will never accept: drop it
          forgetSession(c)
        }
        // otherwise the key set was out of reach: signed out for this page, cookies kept
      }
    }
    c.set('signedIn', Boolean(c.var.user))
    await next()
  }
}
