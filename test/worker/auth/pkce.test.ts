import { env } from 'cloudflare:test'
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { DUMMY_TOKEN, withCaptchaFor } from '../challenge'
import { api, client, SITE, unique as uniqueEmail } from './helpers'
import { mailsTo } from '../inbox'

const unique = () => uniqueEmail('pkce')

/** A post as supabase-js makes it: with its captcha where the endpoint wants one. */
const post = (path: string, body: unknown) =>
  api(path, { method: 'POST', body: JSON.stringify(withCaptchaFor(path, body)) })

/** The link and six-digit code of the newest e-mail to the address (sent after the answer). */
async function lastMail(to: string, count = 1) {
  for (let i = 0; i < 100; i++) {
    const mails = await mailsTo(to)
    const text = mails.length >= count ? mails.at(-1)?.body_text : undefined
    if (text) {
      const link = new URL(text.match(/https?:\/\/\S+/)![0])
      return { link, code: text.replace(link.href, '').match(/\b\d{6}\b/)?.[0] ?? '' }
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no e-mail to ${to}`)
}

const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

/** A fresh verifier and its S256 challenge (RFC 7636). */
async function pkcePair() {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(48)).buffer)
  const challenge = base64url(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)),
  )
  return { verifier, challenge }
}

const exchange = async (authCode: string, verifier: string) => {
  const res = await post('/token?grant_type=pkce', {
    auth_code: authCode,
    code_verifier: verifier,
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

const amrOf = (accessToken: string) =>
  (decodeJwt(accessToken).amr as { method: string }[]).map((a) => a.method)

describe('PKCE with @supabase/supabase-js (flowType: pkce)', () => {
  it('signInWithOtp e-mails a link with a code; exchangeCodeForSession signs in, once', async () => {
    const supabase = client({ flowType: 'pkce' })
    const email = unique()
    const sent = await supabase.auth.signInWithOtp({
      email,
      options: {
        captchaToken: DUMMY_TOKEN,
        emailRedirectTo: `${SITE}/auth/callback?next=/account`,
      },
    })
    expect(sent.error).toBeNull()
    const { link, code: sixDigits } = await lastMail(email)
    // to the client's redirect, with the auth code (not the one-time token) in the query
    expect(link.origin + link.pathname).toBe(`${SITE}/auth/callback`)
    expect(link.searchParams.get('next')).toBe('/account')
    const authCode = link.searchParams.get('code')!
    expect(authCode).toMatch(/^[0-9a-f-]{36}$/)
    expect(link.searchParams.has('token_hash')).toBe(false)
    expect(sixDigits).toMatch(/^\d{6}$/)

    const exchanged = await supabase.auth.exchangeCodeForSession(authCode)
    expect(exchanged.error).toBeNull()
    expect(exchanged.data.user?.email).toBe(email)
    expect(amrOf(exchanged.data.session!.access_token)).toEqual(['otp'])
    const me = await supabase.auth.getUser()
    expect(me.error).toBeNull()
    expect(me.data.user?.id).toBe(exchanged.data.user!.id)
    // the session refreshes like any other
    expect((await supabase.auth.refreshSession()).error).toBeNull()

    // spent: the same e-mail's six-digit code no longer works either
    const code = await client().auth.verifyOtp({ email, token: sixDigits, type: 'email' })
    expect(code.error).toMatchObject({ status: 403, code: 'otp_expired' })
  })

  it('resetPasswordForEmail e-mails a code link that exchanges for a recovery session', async () => {
    const email = unique()
    await client().auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    const supabase = client({ flowType: 'pkce' })
    const sent = await supabase.auth.resetPasswordForEmail(email, {
      redirectTo: `${SITE}/auth/reset`,
      captchaToken: DUMMY_TOKEN,
    })
    expect(sent.error).toBeNull()
    const { link } = await lastMail(email)
    expect(link.pathname).toBe('/auth/reset')
    const exchanged = await supabase.auth.exchangeCodeForSession(link.searchParams.get('code')!)
    expect(exchanged.error).toBeNull()
    expect(amrOf(exchanged.data.session!.access_token)).toEqual(['recovery'])
    expect((await supabase.auth.updateUser({ password: 'battery staple 2' })).error).toBeNull()
    const signIn = await client().auth.signInWithPassword({ email, password: 'battery staple 2' })
    expect(signIn.error).toBeNull()
  })

  it('signUp with PKCE signs in at once (e-mail confirmation is off)', async () => {
    const email = unique()
    const up = await client({ flowType: 'pkce' }).auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    expect(up.error).toBeNull()
    expect(up.data.session?.access_token).toBeTruthy()
  })

  it('a wrong verifier or an unknown code is refused with GoTrue errors', async () => {
    const supabase = client({ flowType: 'pkce' })
    const email = unique()
    await supabase.auth.signInWithOtp({ email, options: { captchaToken: DUMMY_TOKEN } })
    const { link } = await lastMail(email)
    // without redirect_to the link goes to the site itself, as GoTrue's to its SITE_URL
    expect(link.origin + link.pathname).toBe(`${SITE}/`)
    const authCode = link.searchParams.get('code')!
    const other = client({ flowType: 'pkce' })
    // another client has no verifier for it at all
    const missing = await other.auth.exchangeCodeForSession(authCode)
    expect(missing.error?.name).toBe('AuthPKCECodeVerifierMissingError')
    expect(await exchange(authCode, 'x'.repeat(43))).toEqual({
      status: 400,
      body: {
        code: 400,
        error_code: 'bad_code_verifier',
        msg: 'code challenge does not match previously saved code verifier',
      },
    })
    expect(await exchange(crypto.randomUUID(), 'x'.repeat(43))).toEqual({
      status: 404,
      body: {
        code: 404,
        error_code: 'flow_state_not_found',
        msg: 'invalid flow state, no valid flow state found',
      },
    })
    // a failed attempt does not spend the flow: the right client still signs in
    expect((await supabase.auth.exchangeCodeForSession(authCode)).error).toBeNull()
  })
})

describe('PKCE over HTTP (POST /otp, /recover with code_challenge; grant_type=pkce)', () => {
  it('checks the S256 challenge, works once, and not after the six-digit code was used', async () => {
    const email = unique()
    const { verifier, challenge } = await pkcePair()
    const sent = await post('/otp', {
      email,
      code_challenge: challenge,
      code_challenge_method: 's256',
    })
    expect(sent.status).toBe(200)
    const { link } = await lastMail(email)
    const authCode = link.searchParams.get('code')!
    const first = await exchange(authCode, verifier)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ token_type: 'bearer', user: { email } })
    expect((await exchange(authCode, verifier)).body).toMatchObject({
      error_code: 'flow_state_not_found',
    })

    // a second e-mail, whose six-digit code is used first: its link is spent with it
    const second = await pkcePair()
    await env.DB.prepare(
      `UPDATE auth_one_time_tokens SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-2 minutes')
       WHERE user_id = (SELECT id FROM auth_users WHERE email = ?)`,
    )
      .bind(email)
      .run()
    await post('/otp', {
      email,
      code_challenge: second.challenge,
      code_challenge_method: 'S256',
    })
    const mail = await lastMail(email, 2)
    expect(mail.link.searchParams.get('code')).not.toBe(authCode)
    expect((await post('/verify', { type: 'email', email, token: mail.code })).status).toBe(200)
    expect((await exchange(mail.link.searchParams.get('code')!, second.verifier)).status).toBe(404)
  })

  it('takes the plain method, and refuses an expired flow', async () => {
    const email = unique()
    await client().auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    const verifier = 'v'.repeat(50)
    await post('/recover', { email, code_challenge: verifier, code_challenge_method: 'plain' })
    const { link } = await lastMail(email)
    const authCode = link.searchParams.get('code')!
    // an hour and more later
    await env.DB.prepare(
      `UPDATE auth_one_time_tokens SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-61 minutes')
       WHERE user_id = (SELECT id FROM auth_users WHERE email = ?)`,
    )
      .bind(email)
      .run()
    expect(await exchange(authCode, verifier)).toEqual({
      status: 422,
      body: {
        code: 422,
        error_code: 'flow_state_expired',
        msg: 'invalid flow state, flow state has expired',
      },
    })
  })

  it('validates the PKCE fields as GoTrue does', async () => {
    const email = unique()
    const refusal = async (path: string, body: object) => {
      const res = await post(path, { email, password: 'correct horse 1', ...body })
      return [res.status, ((await res.json()) as { msg: string }).msg]
    }
    for (const path of ['/otp', '/recover', '/signup']) {
      expect(await refusal(path, { code_challenge: 'x'.repeat(43) })).toEqual([
        400,
        'PKCE flow requires code_challenge_method and code_challenge',
      ])
      expect(
        await refusal(path, { code_challenge: 'short', code_challenge_method: 's256' }),
      ).toEqual([400, 'code challenge has to be between 43 and 128 characters'])
      expect(
        await refusal(path, {
          code_challenge: `${'x'.repeat(43)}!`,
          code_challenge_method: 's256',
        }),
      ).toEqual([
        400,
        'code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes',
      ])
      expect(
        await refusal(path, { code_challenge: 'x'.repeat(43), code_challenge_method: 'md5' }),
      ).toEqual([400, 'unsupported code_challenge method "md5"'])
    }
    expect((await exchange('', '')).body).toEqual({
      code: 400,
      error_code: 'validation_failed',
      msg: 'invalid request: both auth code and code verifier should be non-empty',
    })
  })

  it('sends the link only to this site: a foreign redirect_to falls back to the site', async () => {
    const email = unique()
    const { challenge } = await pkcePair()
    await post(`/otp?redirect_to=${encodeURIComponent('https://evil.example/steal')}`, {
      email,
      code_challenge: challenge,
      code_challenge_method: 's256',
    })
    const { link } = await lastMail(email)
    expect(link.origin).toBe(SITE)
    expect(link.pathname).toBe('/')
  })
})
