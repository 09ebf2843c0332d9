import { decodeJwt } from 'jose'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { midWindow } from '../clock'
import { DUMMY_TOKEN, withCaptcha, withCaptchaFor } from '../challenge'
import { api, client, SITE, unique as uniqueEmail } from './helpers'
import { lastMail, outboxRows, type Mail } from '../inbox'
import ar from '../../../locales/ar.json'
import en from '../../../locales/en.json'

const unique = () => uniqueEmail('otp')

/** A post as supabase-js makes it: with its captcha where the endpoint wants one. */
const post = (path: string, body: unknown) =>
  api(path, { method: 'POST', body: JSON.stringify(withCaptchaFor(path, body)) })

/** The link and the six-digit code of an e-mail. */
function linkAndCode(mail: Mail) {
  const link = mail.body_text.match(/https?:\/\/\S+/)?.[0]
  const rest = link ? mail.body_text.replace(link, '') : mail.body_text
  return { link: link ? new URL(link) : null, code: rest.match(/\b\d{6}\b/)?.[0] ?? '' }
}

const otherCode = (code: string, n = 1) => String((Number(code) + n) % 1_000_000).padStart(6, '0')
const amrOf = (accessToken: string) =>
  (decodeJwt(accessToken).amr as { method: string }[]).map((a) => a.method)

describe('passwordless sign-in (POST /otp, POST /verify)', () => {
  it('e-mails a link that opens its page in the e-mail’s language', async () => {
    const email = unique()
    const res = await api('/otp', {
      method: 'POST',
      body: JSON.stringify(withCaptcha({ email, create_user: true })),
      headers: { 'Accept-Language': 'ar' },
    })
    expect(res.status).toBe(200)
    const mail = await lastMail(email)
    expect(mail.subject).toBe(ar.auth.magic_link_subject)
    // followed on a phone whose browser is in English, the page is still in Arabic
    expect(linkAndCode(mail).link!.searchParams.get('lang')).toBe('ar')
  })

  it('signInWithOtp e-mails a link and a code; the code signs in, once, and spends the link', async () => {
    const supabase = client()
    const email = unique()
    const sent = await supabase.auth.signInWithOtp({
      email,
      options: { captchaToken: DUMMY_TOKEN, data: { name: 'Ada' } },
    })
    expect(sent.error).toBeNull()
    const mail = await lastMail(email)
    expect(mail.subject).toBe(en.auth.magic_link_subject)
    const { link, code } = linkAndCode(mail)
    expect(code).toMatch(/^\d{6}$/)
    expect(link!.origin + link!.pathname).toBe(`${SITE}/auth/confirm`)
    expect(link!.searchParams.get('type')).toBe('magiclink')
    const tokenHash = link!.searchParams.get('token_hash')!
    expect(tokenHash.length).toBeGreaterThanOrEqual(20)

    const verified = await supabase.auth.verifyOtp({ email, token: code, type: 'email' })
    expect(verified.error).toBeNull()
    expect(verified.data.user?.email).toBe(email)
    // a new account, with the data it was asked for
    expect(verified.data.user?.user_metadata).toEqual({ name: 'Ada' })
    expect(amrOf(verified.data.session!.access_token)).toEqual(['otp'])
    expect((await supabase.auth.getUser()).data.user?.id).toBe(verified.data.user!.id)

    // spent: the code again, and the link of the same e-mail
    const again = await client().auth.verifyOtp({ email, token: code, type: 'email' })
    expect(again.error).toMatchObject({
      status: 403,
      code: 'otp_expired',
      message: 'Token has expired or is invalid',
    })
    const link2 = await post('/verify', { type: 'magiclink', token_hash: tokenHash })
    expect(link2.status).toBe(403)
    expect(await link2.json()).toEqual({
      code: 403,
      error_code: 'otp_expired',
      msg: 'Email link is invalid or has expired',
    })
  })

  it("the magic link's token_hash signs an existing account in, once; its password is unchanged", async () => {
    const email = unique()
    const up = await client().auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    expect(up.error).toBeNull()
    const sent = await client().auth.signInWithOtp({
      email,
      options: { captchaToken: DUMMY_TOKEN, shouldCreateUser: false },
    })
    expect(sent.error).toBeNull()
    const { link, code } = linkAndCode(await lastMail(email))
    const token_hash = link!.searchParams.get('token_hash')!

    const supabase = client()
    const verified = await supabase.auth.verifyOtp({ token_hash, type: 'magiclink' })
    expect(verified.error).toBeNull()
    expect(verified.data.user?.id).toBe(up.data.user!.id)
    expect(amrOf(verified.data.session!.access_token)).toEqual(['otp'])

    const again = await client().auth.verifyOtp({ token_hash, type: 'magiclink' })
    expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' })
    // the code of the same e-mail went with it
    const byCode = await client().auth.verifyOtp({ email, token: code, type: 'magiclink' })
    expect(byCode.error).toMatchObject({ status: 403, code: 'otp_expired' })
    const signIn = await client().auth.signInWithPassword({ email, password: 'correct horse 1' })
    expect(signIn.error).toBeNull()
  })

  it('a magic link is not a recovery link, nor a recovery link a magic link', async () => {
    const email = unique()
    await client().auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    await client().auth.signInWithOtp({ email, options: { captchaToken: DUMMY_TOKEN } })
    const magic = linkAndCode(await lastMail(email)).link!.searchParams.get('token_hash')!
    expect((await post('/verify', { type: 'recovery', token_hash: magic })).status).toBe(403)
    await post('/recover', { email })
    const recovery = linkAndCode(await lastMail(email, 2)).link!.searchParams.get('token')!
    expect((await post('/verify', { type: 'magiclink', token_hash: recovery })).status).toBe(403)
    // each still works for its own type
    const r = await post('/verify', { type: 'recovery', token_hash: recovery })
    expect(r.status).toBe(200)
    expect(amrOf(((await r.json()) as { access_token: string }).access_token)).toEqual(['recovery'])
    expect((await post('/verify', { type: 'email', token_hash: magic })).status).toBe(200)
  })

  it('with create_user false an unknown address gets 422 otp_disabled, no account and no e-mail', async () => {
    const email = unique()
    const res = await client().auth.signInWithOtp({
      email,
      options: { captchaToken: DUMMY_TOKEN, shouldCreateUser: false },
    })
    expect(res.error).toMatchObject({
      status: 422,
      code: 'otp_disabled',
      message: 'Signups not allowed for otp',
    })
    const raw = await post('/otp', { email, create_user: false })
    expect(await raw.json()).toEqual({
      code: 422,
      error_code: 'otp_disabled',
      msg: 'Signups not allowed for otp',
    })
    expect(await outboxRows(email)).toEqual([])
    // still no account: a password sign-in finds none
    const signIn = await client().auth.signInWithPassword({ email, password: 'whatever 123' })
    expect(signIn.error).toMatchObject({ code: 'invalid_credentials' })
  })

  it('answers {} for new and existing accounts alike, and once a minute per account', async () => {
    const email = unique()
    const first = await post('/otp', { email })
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({})
    await lastMail(email)
    const soon = await post('/otp', { email })
    expect(soon.status).toBe(429)
    expect(await soon.json()).toMatchObject({ code: 429, error_code: 'over_email_send_rate_limit' })
    expect(await outboxRows(email)).toHaveLength(1)
    for (const bad of [{}, { email: 'not an address' }, { email, create_user: 'yes' }])
      expect((await post('/otp', bad)).status).toBe(400)
  })

  it('throttles wrong codes: five per e-mail, then 429 even for the right one', async () => {
    const email = unique()
    await client().auth.signInWithOtp({ email, options: { captchaToken: DUMMY_TOKEN } })
    const { code } = linkAndCode(await lastMail(email))
    // the failures from here on count in one window (the mail's wait runs on the real clock)
    midWindow(900)
    onTestFinished(() => {
      vi.useRealTimers()
    })
    const statuses = []
    for (let i = 1; i <= 5; i++)
      statuses.push(
        (await post('/verify', { type: 'email', email, token: otherCode(code, i) })).status,
      )
    expect(statuses).toEqual([403, 403, 403, 403, 403])
    const right = await client().auth.verifyOtp({ email, token: code, type: 'email' })
    expect(right.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' })
    // an address without an account answers like a wrong code
    const nobody = await post('/verify', { type: 'email', email: unique(), token: '123456' })
    expect(nobody.status).toBe(403)
    expect(await nobody.json()).toEqual({
      code: 403,
      error_code: 'otp_expired',
      msg: 'Token has expired or is invalid',
    })
  })

  it('refuses verify bodies of the wrong shape with 400', async () => {
    for (const bad of [
      {},
      { type: 'email' },
      { type: 'invite', token_hash: 'x'.repeat(40) },
      { type: 'sms', email: unique(), token: '123456' },
      { type: 'email', email: 'nope', token: '123456' },
      { type: 'magiclink', token_hash: 'short' },
    ])
      expect((await post('/verify', bad)).status, JSON.stringify(bad)).toBe(400)
  })
})

describe('POST /resend', () => {
  it('validates the body and answers {} without sending: nothing is ever pending', async () => {
    const email = unique()
    await client().auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    for (const type of ['signup', 'email_change'] as const) {
      const res = await client().auth.resend({
        type,
        email,
        options: { captchaToken: DUMMY_TOKEN },
      })
      expect(res.error).toBeNull()
    }
    const raw = await post('/resend', { type: 'signup', email: unique() })
    expect(raw.status).toBe(200)
    expect(await raw.json()).toEqual({})
    const wrongType = await post('/resend', { type: 'magiclink', email })
    expect(wrongType.status).toBe(400)
    expect(await wrongType.json()).toMatchObject({ code: 400, error_code: 'validation_failed' })
    expect((await post('/resend', { type: 'signup', email: 'nope' })).status).toBe(400)
    expect((await post('/resend', { email })).status).toBe(400)
    expect((await api('/resend', { method: 'POST', body: 'not json' })).status).toBe(400)
    expect(await outboxRows(email)).toEqual([])
  })
})

describe('reauthentication (GET /reauthenticate, PUT /user with a nonce)', () => {
  it('e-mails a nonce that lets updateUser change the password once; a wrong one gets 400', async () => {
    const supabase = client()
    const email = unique()
    const up = await supabase.auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    expect(up.error).toBeNull()
    expect((await api('/reauthenticate')).status).toBe(401)

    const sent = await supabase.auth.reauthenticate()
    expect(sent.error).toBeNull()
    const mail = await lastMail(email)
    expect(mail.subject).toBe(en.auth.reauthentication_subject)
    const { code: nonce } = linkAndCode(mail)
    expect(nonce).toMatch(/^\d{6}$/)

    const wrong = await supabase.auth.updateUser({
      password: 'a new password 2',
      nonce: otherCode(nonce),
    })
    expect(wrong.error).toMatchObject({
      status: 400,
      code: 'reauthentication_not_valid',
      message: 'Verification code is invalid or expired',
    })
    const ok = await supabase.auth.updateUser({ password: 'a new password 2', nonce })
    expect(ok.error).toBeNull()
    expect(
      (await client().auth.signInWithPassword({ email, password: 'a new password 2' })).error,
    ).toBeNull()
    // spent
    const again = await supabase.auth.updateUser({ password: 'a third password 3', nonce })
    expect(again.error).toMatchObject({ status: 400, code: 'reauthentication_not_valid' })
    // a nonce is not a sign-in code
    const asOtp = await client().auth.verifyOtp({ email, token: nonce, type: 'email' })
    expect(asOtp.error).toMatchObject({ status: 403, code: 'otp_expired' })
  })

  it('throttles wrong nonces per user and keeps sign-in codes out of PUT /user', async () => {
    const supabase = client()
    const email = unique()
    const { data } = await supabase.auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    const bearer = { Authorization: `Bearer ${data.session!.access_token}` }
    // a sign-in code from /otp is no reauthentication nonce
    await post('/otp', { email })
    const { code } = linkAndCode(await lastMail(email))
    // the failures from here on count in one window (the mail's wait runs on the real clock)
    midWindow(900)
    onTestFinished(() => {
      vi.useRealTimers()
    })
    const put = (nonce: string) =>
      api('/user', {
        method: 'PUT',
        headers: bearer,
        body: JSON.stringify({ password: 'a new password 2', nonce }),
      })
    const statuses = []
    for (const nonce of [code, '000000', 'abc', '', otherCode(code)])
      statuses.push((await put(nonce)).status)
    expect(statuses).toEqual([400, 400, 400, 400, 400])
    const sixth = await put('123456')
    expect(sixth.status).toBe(429)
    expect(await sixth.json()).toMatchObject({ error_code: 'over_request_rate_limit' })
    // without a nonce the password change is as before
    const plain = await api('/user', {
      method: 'PUT',
      headers: bearer,
      body: JSON.stringify({ password: 'a new password 2' }),
    })
    expect(plain.status).toBe(200)
  })
})
