import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { afterEach, describe, expect, it, vi } from 'vitest'
import en from '../../../locales/en.json'
import type { Bindings } from '../../../worker/bindings'
import app from '../../../worker/index'
import { DUMMY_TOKEN, TOKEN_FIELD, withCaptcha } from '../challenge'
import { api, SITE, unique } from './helpers'

// A provider that accepts connections and never answers must not hang the site; concurrent
// requests of one visitor must not sign each other out; a signed-out token opens nothing.

type Session = { access_token: string; refresh_token: string; user: { email: string } }

async function call(request: Request, overrides: Partial<Bindings> = {}) {
  const ctx = createExecutionContext()
  const res = await app.fetch(request, { ...env, ...overrides }, ctx)
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body, signedIn: body.includes('action="/auth/sign-out"') }
}

const page = (path: string, cookie: string, overrides: Partial<Bindings> = {}) =>
  call(new Request(SITE + path, { headers: { Cookie: cookie } }), overrides)

/** The forms that e-mail the address typed: their page's widget adds its token. */
const CHALLENGED = new Set(['/auth/sign-up', '/auth/magic-link', '/auth/recover'])

/** A form posted from the site's page, as a browser with JavaScript posts it. */
const form = (path: string, fields: Record<string, string>, overrides: Partial<Bindings>) =>
  call(
    new Request(SITE + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: SITE,
        'CF-Connecting-IP': `198.51.100.${Math.floor(Math.random() * 250)}`,
      },
      body: new URLSearchParams(
        CHALLENGED.has(path) ? { [TOKEN_FIELD]: DUMMY_TOKEN, ...fields } : fields,
      ).toString(),
    }),
    overrides,
  )

async function signUp(): Promise<Session> {
  const res = await api('/signup', {
    method: 'POST',
    body: JSON.stringify(withCaptcha({ email: unique('resilience'), password: 'correct horse 1' })),
  })
  return (await res.json()) as Session
}

const cookieOf = (s: { access_token: string; refresh_token: string }) =>
  `sb-access-token=${s.access_token}; sb-refresh-token=${s.refresh_token}`

const elapsed = async <T>(work: () => Promise<T>) => {
  const started = Date.now()
  const result = await work()
  return { ...result, ms: Date.now() - started }
}

/** AUTH_URL pointing at `host`, whose tokens carry the built-in service's issuer. */
const hosted = (host: string) => ({
  AUTH_URL: `https://${host}/auth/v1`,
  AUTH_API_KEY: 'anon',
  AUTH_ISSUER: `${SITE}/auth/v1`,
})

/**
 * Every request to `host` hangs until its caller gives up, like a server that accepted the
 * connection and never answered; `keys` is served the key set first, when asked to.
 */
function hangingProvider(host: string, keys?: unknown) {
  const real = globalThis.fetch
  return vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (url.host !== host) return real(input, init)
    if (keys && url.pathname.endsWith('/jwks.json')) return Promise.resolve(Response.json(keys))
    return new Promise((_, reject) => {
      const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined)
      signal?.addEventListener('abort', () => reject(signal.reason))
    })
  })
}

afterEach(() => vi.restoreAllMocks())

describe('a provider that never answers', () => {
  it('answers a page with a valid session cookie within 1 s, signed in', async () => {
    const session = await signUp()
    const keys = await (await api('/.well-known/jwks.json')).json()
    // the site has met this provider before: its key set is cached
    hangingProvider('warm.example', keys)
    expect((await page('/about', cookieOf(session), hosted('warm.example'))).signedIn).toBe(true)
    vi.restoreAllMocks()
    hangingProvider('warm.example')
    const { signedIn, ms, res } = await elapsed(() =>
      page('/about', cookieOf(session), hosted('warm.example')),
    )
    expect(res.status).toBe(200)
    expect(signedIn).toBe(true)
    expect(ms).toBeLessThan(1000)
  })

  it('answers within 1 s, signed out for now, when it has never given its keys', async () => {
    const session = await signUp()
    hangingProvider('cold.example')
    const { signedIn, ms, res } = await elapsed(() =>
      page('/about', cookieOf(session), hosted('cold.example')),
    )
    expect(res.status).toBe(200)
    expect(signedIn).toBe(false)
    expect(res.headers.get('set-cookie') ?? '').not.toMatch(/sb-access-token=;/)
    expect(ms).toBeLessThan(1000)
  })

  it('answers within 3 s with an expired cookie: signed out for now, cookies kept', async () => {
    const session = await signUp()
    const keys = await (await api('/.well-known/jwks.json')).json()
    const claims = JSON.parse(
      atob(session.access_token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')),
    )
    // an expired token signed by a key of the provider's set: a fresh key, listed in it
    const key = await generateKeyPair('ES256', { extractable: true })
    const jwk = { ...(await exportJWK(key.publicKey)), kid: 'expired-test', alg: 'ES256' }
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 })
      .setProtectedHeader({ alg: 'ES256', kid: 'expired-test' })
      .sign(key.privateKey)
    const keySet = { keys: [...(keys as { keys: unknown[] }).keys, jwk] }
    hangingProvider('slow.example', keySet)
    await page('/about', '', hosted('slow.example'))
    const cookie = cookieOf({ access_token: expired, refresh_token: session.refresh_token })
    const { signedIn, ms, res } = await elapsed(() =>
      page('/about', cookie, hosted('slow.example')),
    )
    expect(res.status).toBe(200)
    expect(signedIn).toBe(false)
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(ms).toBeLessThan(3000)
  })

  it.each([
    ['/auth/sign-in', { email: 'a@example.org', password: 'correct horse 1' }],
    ['/auth/sign-up', { email: 'b@example.org', password: 'correct horse 1' }],
    ['/auth/magic-link', { email: 'c@example.org' }],
    ['/auth/recover', { email: 'd@example.org' }],
  ])('answers %s within 3 s with the localized "not available"', async (path, fields) => {
    hangingProvider('down.example')
    const { res, ms } = await elapsed(() => form(path, fields, hosted('down.example')))
    expect(ms).toBeLessThan(3000)
    expect(res.status).toBe(303)
    const location = res.headers.get('location')!
    expect(location).toMatch(/error=unavailable/)
    const shown = await page(location, '', hosted('down.example'))
    expect(shown.body).toContain(en.auth.errors.unavailable)
  })
})

describe('concurrent requests of one visitor', () => {
  it('keeps all five signed in when they carry one expired access cookie', async () => {
    const key = await generateKeyPair('ES256', { extractable: true })
    const jwk = JSON.stringify({ ...(await exportJWK(key.privateKey)), kid: 'concurrent' })
    const up = await call(
      new Request(`${SITE}/auth/v1/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(
          withCaptcha({ email: unique('concurrent'), password: 'correct horse 1' }),
        ),
      }),
      { AUTH_SIGNING_KEY: jwk },
    )
    const session = JSON.parse(up.body) as Session
    const claims = JSON.parse(
      atob(session.access_token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')),
    )
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 })
      .setProtectedHeader({ alg: 'ES256', kid: 'concurrent' })
      .sign(key.privateKey)
    const cookie = cookieOf({ access_token: expired, refresh_token: session.refresh_token })
    const five = await Promise.all(
      ['/', '/about', '/faq', '/auth/session', '/contact'].map((path) =>
        page(path, cookie, { AUTH_SIGNING_KEY: jwk }),
      ),
    )
    for (const { res, body, signedIn } of five)
      expect(signedIn || body.includes('"signedIn":true'), res.url).toBe(true)
    // each answer carries the session's new tokens, and the service takes the new refresh token
    const refreshTokens = new Set(
      five.map(({ res }) =>
        res.headers.getSetCookie().find((c) => c.startsWith('sb-refresh-token=')),
      ),
    )
    expect(refreshTokens.size).toBe(1)
    const next = [...refreshTokens][0]!.split(';')[0].split('=')[1]
    const again = await call(
      new Request(`${SITE}/auth/v1/token?grant_type=refresh_token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refresh_token: next }),
      }),
      { AUTH_SIGNING_KEY: jwk },
    )
    expect(again.res.status).toBe(200)
  })
})

describe('signed out means signed out', () => {
  it('sends a token whose session ended from /account to sign in, and drops it', async () => {
    const session = await signUp()
    const open = await page('/account', cookieOf(session))
    expect(open.res.status).toBe(200)
    const out = await api('/logout', {
      method: 'POST',
      headers: { Authorization: `Bearer ${session.access_token}` },
    })
    expect(out.status).toBe(204)
    const after = await page('/account', cookieOf(session))
    expect(after.res.status).toBe(303)
    expect(after.res.headers.get('location')).toBe('/auth?next=/account')
    expect(after.res.headers.get('set-cookie')).toMatch(/sb-access-token=;/)
  })
})
