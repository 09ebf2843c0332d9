import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { withCaptcha } from '../challenge'
import { codeFor, form, SITE, unique as uniqueEmail } from './helpers'
import { lastMail, outboxRows } from '../inbox'
import en from '../../../locales/en.json'
import app from '../../../worker/index'

const unique = () => uniqueEmail('bff')

/** name=value pairs of the response's Set-Cookie headers. */
const cookiesOf = (res: Response) =>
  Object.fromEntries(
    res.headers.getSetCookie().map((c) => c.split(';')[0].split('=') as [string, string]),
  )
const cookieHeader = (jar: Record<string, string>) =>
  Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ')

async function signedUp() {
  const email = unique()
  const res = await form('/auth/sign-up', { email, password: 'correct horse 1' })
  return { email, res, jar: cookiesOf(res) }
}

describe('signing in through the site', () => {
  it('keeps the session in HttpOnly, SameSite=Lax, Secure cookies and shows the Account menu', async () => {
    const { email, res, jar } = await signedUp()
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/')
    for (const c of res.headers.getSetCookie().filter((c) => c.startsWith('sb-')))
      expect(c).toMatch(/HttpOnly; Secure; SameSite=Lax/)
    expect(jar['sb-access-token']).toBeTruthy()
    const page = await (
      await SELF.fetch(`${SITE}/about`, { headers: { Cookie: cookieHeader(jar) } })
    ).text()
    expect(page).toContain(`>${en.auth.account}<`)
    expect(page).toContain(email)
    expect(page).toContain('action="/auth/sign-out"')
    expect(page).not.toContain('href="/auth"')
    // the welcome notice travels to the next page once
    expect(page).toContain(`data-flash="{&quot;title&quot;:&quot;${en.auth.signed_up_title}`)
  })

  it('sends wrong credentials back to the form with a message, and refuses cross-site posts', async () => {
    const { email } = await signedUp()
    const wrong = await form('/auth/sign-in', { email, password: 'wrong password' })
    expect(wrong.status).toBe(303)
    expect(wrong.headers.get('location')).toBe(
      `/auth?mode=sign-in&error=invalid_credentials&email=${encodeURIComponent(email)}`,
    )
    const page = await (await SELF.fetch(SITE + wrong.headers.get('location'))).text()
    expect(page).toContain(en.auth.errors.invalid_credentials)
    const foreign = await form(
      '/auth/sign-in',
      { email, password: 'correct horse 1' },
      { Origin: 'https://evil.example' },
    )
    expect(foreign.status).toBe(403)
  })

  it('signs out: the service ends the session, the cookies go, the notice says so', async () => {
    const { jar } = await signedUp()
    const out = await form(
      '/auth/sign-out',
      {},
      { Cookie: cookieHeader(jar), Referer: `${SITE}/pricing` },
    )
    expect(out.status).toBe(303)
    expect(out.headers.get('location')).toBe('/pricing')
    const after = cookiesOf(out)
    expect(after['sb-access-token']).toBe('')
    expect(decodeURIComponent(after.flash)).toContain(en.auth.signed_out_title)
    const token = jar['sb-access-token']
    expect(
      (await SELF.fetch(`${SITE}/auth/v1/user`, { headers: { Authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(403)
  })

  it('signs out all the same when the service has ended the session already', async () => {
    const { jar } = await signedUp()
    // ended elsewhere (another device signed out everywhere): GoTrue answers 403 now
    const ended = await SELF.fetch(`${SITE}/auth/v1/logout?scope=global`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${jar['sb-access-token']}` },
    })
    expect(ended.status).toBe(204)
    const out = await form('/auth/sign-out', {}, { Cookie: cookieHeader(jar) })
    expect(out.status).toBe(303)
    expect(cookiesOf(out)['sb-access-token']).toBe('')
    expect(decodeURIComponent(cookiesOf(out).flash)).toContain(en.auth.signed_out_title)
  })
})

describe('every render verifies the session', () => {
  async function render(cookie: string, overrides: Record<string, unknown> = {}) {
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request(`${SITE}/faq`, { headers: { Cookie: cookie } }),
      { ...env, ...overrides },
      ctx,
    )
    const html = await res.text()
    await waitOnExecutionContext(ctx)
    return { res, html, signedIn: html.includes('action="/auth/sign-out"') }
  }

  /** A new account's session whose access token has just expired (signed with its own key). */
  async function expiredSession() {
    const key = await generateKeyPair('ES256', { extractable: true })
    const jwk = JSON.stringify({ ...(await exportJWK(key.privateKey)), kid: 'bff-test' })
    // sign up with that key installed, then present an expired access token of that session
    const ctx = createExecutionContext()
    const up = await app.fetch(
      new Request(`${SITE}/auth/v1/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(withCaptcha({ email: unique(), password: 'correct horse 1' })),
      }),
      { ...env, AUTH_SIGNING_KEY: jwk },
      ctx,
    )
    await waitOnExecutionContext(ctx)
    const session = (await up.json()) as {
      access_token: string
      refresh_token: string
      user: { id: string; email: string }
    }
    const claims = JSON.parse(
      atob(session.access_token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')),
    )
    const expired = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 })
      .setProtectedHeader({ alg: 'ES256', kid: 'bff-test' })
      .sign(key.privateKey)
    return { jwk, session, expired }
  }

  it('refreshes an expired access token once, with the refresh token', async () => {
    const { jwk, session, expired } = await expiredSession()
    const { res, html, signedIn } = await render(
      `sb-access-token=${expired}; sb-refresh-token=${session.refresh_token}`,
      { AUTH_SIGNING_KEY: jwk },
    )
    expect(signedIn).toBe(true)
    expect(html).toContain(session.user.email)
    const renewed = cookiesOf(res)
    expect(renewed['sb-access-token']).toBeTruthy()
    expect(renewed['sb-access-token']).not.toBe(expired)
    expect(renewed['sb-refresh-token']).not.toBe(session.refresh_token)
  })

  it('acts on a form with the token refreshed for that request, not the expired one', async () => {
    const { jwk, session, expired } = await expiredSession()
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request(`${SITE}/auth/password`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: SITE,
          Cookie: `sb-access-token=${expired}; sb-refresh-token=${session.refresh_token}`,
        },
        body: new URLSearchParams({ password: 'a new password 4' }).toString(),
      }),
      { ...env, AUTH_SIGNING_KEY: jwk },
      ctx,
    )
    await waitOnExecutionContext(ctx)
    expect(res.headers.get('location')).toBe('/account')
  })

  it('answers the browser session check, refreshing a token that is about to expire', async () => {
    const key = await generateKeyPair('ES256', { extractable: true })
    const jwk = JSON.stringify({ ...(await exportJWK(key.privateKey)), kid: 'bff-near' })
    const ctx = createExecutionContext()
    const up = await app.fetch(
      new Request(`${SITE}/auth/v1/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(withCaptcha({ email: unique(), password: 'correct horse 1' })),
      }),
      { ...env, AUTH_SIGNING_KEY: jwk },
      ctx,
    )
    await waitOnExecutionContext(ctx)
    const session = (await up.json()) as {
      access_token: string
      refresh_token: string
      user: { email: string }
    }
    const claims = JSON.parse(
      atob(session.access_token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')),
    )
    const nearlyDone = await new SignJWT({ ...claims, exp: Math.floor(Date.now() / 1000) + 30 })
      .setProtectedHeader({ alg: 'ES256', kid: 'bff-near' })
      .sign(key.privateKey)
    const ctx2 = createExecutionContext()
    const res = await app.fetch(
      new Request(`${SITE}/auth/session`, {
        headers: {
          Cookie: `sb-access-token=${nearlyDone}; sb-refresh-token=${session.refresh_token}`,
        },
      }),
      { ...env, AUTH_SIGNING_KEY: jwk },
      ctx2,
    )
    await waitOnExecutionContext(ctx2)
    expect(await res.json()).toEqual({ signedIn: true, email: session.user.email })
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(cookiesOf(res)['sb-access-token']).toBeTruthy()
    expect(cookiesOf(res)['sb-refresh-token']).not.toBe(session.refresh_token)
    expect(await (await SELF.fetch(`${SITE}/auth/session`)).json()).toEqual({
      signedIn: false,
      email: null,
    })
  })

  it('renders signed out — never an error page — for a forged token or an unreachable key set', async () => {
    const { jar } = await signedUp()
    const [h, p, s] = jar['sb-access-token'].split('.')
    const forged = `${h}.${p.slice(0, -4)}AAAA.${s}`
    const bad = await render(`sb-access-token=${forged}`)
    expect(bad.res.status).toBe(200)
    expect(bad.signedIn).toBe(false)
    expect(cookiesOf(bad.res)['sb-access-token']).toBe('')
    // a hosted service whose JWKS cannot be reached
    const remote = await render(`sb-access-token=${jar['sb-access-token']}`, {
      AUTH_URL: 'http://127.0.0.1:9/auth/v1',
    })
    expect(remote.res.status).toBe(200)
    expect(remote.signedIn).toBe(false)
    expect(remote.html).toContain('href="/auth"')
  })
})

describe('password recovery', () => {
  it('e-mails a one-time link; the link sets a new password and signs in; it works once', async () => {
    const { email } = await signedUp()
    const sent = await form('/auth/recover', { email })
    expect(sent.status).toBe(303)
    expect(sent.headers.get('location')).toBe('/auth?mode=forgot&sent=1')
    const mail = await lastMail(email)
    expect(mail?.subject).toBe(en.auth.recovery_subject)
    const link = new URL(mail!.body_text.match(/https?:\/\/\S+/)![0])
    expect(link.pathname).toBe('/auth/reset')
    const page = await (await SELF.fetch(link.href)).text()
    expect(page).toContain('action="/auth/reset"')

    const token = link.searchParams.get('token')!
    const reset = await form('/auth/reset', { token, password: 'brand new password' })
    expect(reset.status).toBe(303)
    expect(reset.headers.get('location')).toBe('/')
    expect(cookiesOf(reset)['sb-access-token']).toBeTruthy()
    // the new password works, the old one not, and the link is spent
    expect(
      (await form('/auth/sign-in', { email, password: 'brand new password' })).headers.get(
        'location',
      ),
    ).toBe('/')
    expect(
      (await form('/auth/sign-in', { email, password: 'correct horse 1' })).headers.get('location'),
    ).toContain('error=invalid_credentials')
    const again = await form('/auth/reset', { token, password: 'another password' })
    expect(again.headers.get('location')).toBe('/auth?mode=forgot&error=otp_expired')
  })

  it('answers the same for an unknown e-mail and sends nothing', async () => {
    const email = `nobody-${crypto.randomUUID().slice(0, 6)}@example.org`
    const res = await SELF.fetch(`${SITE}/auth/v1/recover`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(withCaptcha({ email })),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({})
    expect(await outboxRows(email)).toEqual([])
    const bad = await SELF.fetch(`${SITE}/auth/v1/verify`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'recovery', token_hash: 'x'.repeat(40) }),
    })
    expect(bad.status).toBe(403)
    expect(await bad.json()).toEqual({
      code: 403,
      error_code: 'otp_expired',
      msg: 'Email link is invalid or has expired',
    })
  })
})

describe('account page', () => {
  it('signing out there leads home, not back to a page for signed-in visitors', async () => {
    const { jar } = await signedUp()
    const out = await form(
      '/auth/sign-out',
      {},
      { Cookie: cookieHeader(jar), Referer: `${SITE}/account` },
    )
    expect(out.headers.get('location')).toBe('/')
  })

  it('is for signed-in visitors only, and changes the password', async () => {
    const signedOut = await SELF.fetch(`${SITE}/account`, { redirect: 'manual' })
    expect(signedOut.status).toBe(303)
    expect(signedOut.headers.get('location')).toBe('/auth?next=/account')
    const { email, jar } = await signedUp()
    const page = await (
      await SELF.fetch(`${SITE}/account`, { headers: { Cookie: cookieHeader(jar) } })
    ).text()
    expect(page).toContain(email)
    expect(page).toContain('action="/auth/password"')
    const weak = await form('/auth/password', { password: 'short' }, { Cookie: cookieHeader(jar) })
    expect(weak.headers.get('location')).toBe('/account?error=weak_password&in=password#password')
    const changed = await form(
      '/auth/password',
      { password: 'a new password 3' },
      { Cookie: cookieHeader(jar) },
    )
    expect(changed.headers.get('location')).toBe('/account')
    expect(
      (await form('/auth/sign-in', { email, password: 'a new password 3' })).headers.get(
        'location',
      ),
    ).toBe('/')
  })
})

describe('two-step verification through the site', () => {
  it('sets up an authenticator app on /account, then asks for its code at sign-in', async () => {
    const { email, jar } = await signedUp()
    const cookie = () => ({ Cookie: cookieHeader(jar) })

    const started = await form('/auth/factors', { friendly_name: 'My phone' }, cookie())
    expect(started.headers.get('location')).toBe('/account#mfa')
    Object.assign(jar, cookiesOf(started))
    const setup = await (await SELF.fetch(`${SITE}/account`, { headers: cookie() })).text()
    expect(setup).toContain('<svg xmlns="http://www.w3.org/2000/svg"')
    expect(setup).toContain(`aria-label="${en.auth.mfa_qr_label}"`)
    const secret = setup.match(/data-secret="true">([A-Z2-7 ]+)</)![1].replace(/ /g, '')

    // a wrong code keeps the set-up open; the right one turns it on
    const wrong = await form('/auth/factors/verify', { code: '000000' }, cookie())
    expect(wrong.headers.get('location')).toBe('/account?error=invalid_code#mfa')
    const confirmed = await form('/auth/factors/verify', { code: codeFor(secret) }, cookie())
    expect(confirmed.headers.get('location')).toBe('/account')
    Object.assign(jar, cookiesOf(confirmed))
    const account = await (await SELF.fetch(`${SITE}/account`, { headers: cookie() })).text()
    expect(account).toContain('My phone')
    expect(account).toContain(en.auth.mfa_status_verified)
    expect(account).not.toContain('data-secret')

    // signing in again: the password alone gives no session, the code does
    const password = await form('/auth/sign-in', { email, password: 'correct horse 1' })
    expect(password.headers.get('location')).toBe('/auth?mode=mfa')
    const pending = cookiesOf(password)
    expect(pending['sb-access-token']).toBeUndefined()
    expect(password.headers.getSetCookie().find((c) => c.startsWith('sb-mfa-pending'))).toMatch(
      /Path=\/auth; HttpOnly; Secure; SameSite=Lax/,
    )
    const step = await (
      await SELF.fetch(`${SITE}/auth?mode=mfa`, { headers: { Cookie: cookieHeader(pending) } })
    ).text()
    expect(step).toContain('action="/auth/mfa"')
    expect(step).toContain('autoComplete="one-time-code"')
    const bad = await form('/auth/mfa', { code: '123456' }, { Cookie: cookieHeader(pending) })
    expect(bad.headers.get('location')).toBe('/auth?mode=mfa&error=invalid_code')
    const good = await form(
      '/auth/mfa',
      { code: codeFor(secret, 1) },
      { Cookie: cookieHeader(pending) },
    )
    expect(good.headers.get('location')).toBe('/')
    const session = cookiesOf(good)
    expect(session['sb-access-token']).toBeTruthy()
    const page = await (
      await SELF.fetch(`${SITE}/about`, { headers: { Cookie: cookieHeader(session) } })
    ).text()
    expect(page).toContain(email)

    // removing the app from the aal2 session turns two-step verification off
    const factorId = account.match(/name="factor_id" value="([0-9a-f-]{36})"/)![1]
    const removed = await form(
      '/auth/factors/remove',
      { factor_id: factorId },
      { Cookie: cookieHeader(session) },
    )
    expect(removed.headers.get('location')).toBe('/account')
    const again = await form('/auth/sign-in', { email, password: 'correct horse 1' })
    expect(again.headers.get('location')).toBe('/')
  })

  it('without a pending sign-in, the code step sends the visitor back to sign in', async () => {
    expect((await form('/auth/mfa', { code: '123456' })).headers.get('location')).toBe(
      '/auth?error=mfa_expired',
    )
    const page = await (await SELF.fetch(`${SITE}/auth?mode=mfa`)).text()
    expect(page).toContain('action="/auth/sign-in"')
  })
})

describe('sign-in links and codes by e-mail', () => {
  it('e-mails a link whose page signs in on a button press, once', async () => {
    const { email } = await signedUp()
    const sent = await form('/auth/magic-link', { email })
    expect(sent.headers.get('location')).toBe(
      `/auth?${new URLSearchParams({ mode: 'magic', sent: '1', email })}`,
    )
    const mail = await lastMail(email)
    const link = new URL(mail!.body_text.match(/https:\/\/\S+/)![0])
    expect(link.pathname).toBe('/auth/confirm')
    // opening the link (as a mail scanner would) spends nothing; the button does
    const page = await (await SELF.fetch(link.href)).text()
    expect(page).toContain('action="/auth/confirm"')
    const tokenHash = link.searchParams.get('token_hash')!
    const fields = { token_hash: tokenHash, type: 'magiclink' }
    const signedIn = await form('/auth/confirm', fields)
    expect(signedIn.headers.get('location')).toBe('/')
    expect(cookiesOf(signedIn)['sb-access-token']).toBeTruthy()
    const again = await form('/auth/confirm', fields)
    expect(again.headers.get('location')).toBe('/auth?mode=magic&error=otp_expired')
  })

  it('takes the six-digit code from the same e-mail instead', async () => {
    const { email } = await signedUp()
    await form('/auth/magic-link', { email })
    const code = (await lastMail(email))!.body_text.match(/\b(\d{6})\b/)![1]
    const wrong = await form('/auth/magic-code', {
      email,
      code: code === '000000' ? '111111' : '000000',
    })
    expect(wrong.headers.get('location')).toContain('error=invalid_code')
    const right = await form('/auth/magic-code', { email, code })
    expect(right.headers.get('location')).toBe('/')
    const page = await (
      await SELF.fetch(`${SITE}/about`, { headers: { Cookie: cookieHeader(cookiesOf(right)) } })
    ).text()
    expect(page).toContain(email)
  })

  it('answers an unknown address as a known one, and sends nothing', async () => {
    const email = unique()
    const sent = await form('/auth/magic-link', { email })
    expect(sent.headers.get('location')).toContain('sent=1')
    expect(await outboxRows(email)).toEqual([])
    const page = await (await SELF.fetch(`${SITE}/auth?mode=magic&sent=1`)).text()
    expect(page).toContain(en.auth.magic_sent)
    expect(page).toContain('action="/auth/magic-code"')
  })
})
