import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { decodeJwt } from 'jose'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DUMMY_TOKEN } from '../challenge'
import { mailsTo, type Mail } from '../inbox'
import { api, client, codeFor, form, SITE, unique as uniqueEmail } from './helpers'
import en from '../../../locales/en.json'
import app from '../../../worker/index'

/**
 * Issue 55's identity findings: an address is the account's only once it is proven, the second
 * factor guards everything that matters, and sessions end with a new password, everywhere on
 * request, and after a maximum age.
 */

const unique = () => uniqueEmail('who')
const PASSWORD = 'correct horse 1'

/** Every e-mail to the address, once at least `count` have arrived. */
async function mailsOf(to: string, count: number) {
  const deadline = Date.now() + 60_000
  for (;;) {
    const mails = await mailsTo(to)
    if (mails.length >= count || Date.now() > deadline) return mails
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** The address-change link of an e-mail: its token_hash, as the site's page reads it. */
function changeLinkOf(mail: Mail) {
  const link = mail.body_text.match(/https?:\/\/\S+type=email_change\S*/)?.[0]
  if (!link) throw new Error(`no address-change link in "${mail.subject}"`)
  const url = new URL(link)
  expect(url.pathname).toBe('/auth/confirm')
  return url.searchParams.get('token_hash')!
}

/** A confirmed account signed in with supabase-js. */
async function account(email = unique()) {
  const supabase = client()
  const up = await supabase.auth.signUp({
    email,
    password: PASSWORD,
    options: { captchaToken: DUMMY_TOKEN },
  })
  expect(up.error).toBeNull()
  return { supabase, email, user: up.data.user! }
}

/** An account with a verified authenticator app: its secret, and an aal2 session. */
async function withFactor() {
  const a = await account()
  const enrolled = await a.supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' })
  const { id: factorId, totp } = enrolled.data as { id: string; totp: { secret: string } }
  const verified = await a.supabase.auth.mfa.challengeAndVerify({
    factorId,
    code: codeFor(totp.secret),
  })
  expect(verified.error).toBeNull()
  return { ...a, factorId, secret: totp.secret }
}

/** A form posted from the site's pages, with the browser's cookies. */
const post = (path: string, fields: Record<string, string>, cookie = '') =>
  form(path, fields, cookie ? { Cookie: cookie } : {})

/** The site's session cookies from a sign-in's answer, as a Cookie header. */
const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c) => !c.endsWith('='))
    .join('; ')

/** Signed in through the site's form: the browser's cookies. */
async function siteSession(email: string, password = PASSWORD) {
  const res = await post('/auth/sign-in', { email, password })
  return { res, cookie: cookieOf(res) }
}

describe('changing an address as GoTrue does (finding 1)', () => {
  it('PUT /user only asks: the address stays, sign-in, GET /user and the token keep the proven one', async () => {
    const victim = unique()
    const { supabase, email } = await account()
    const asked = await supabase.auth.updateUser({ email: victim })
    expect(asked.error).toBeNull()
    expect(asked.data.user?.email).toBe(email)
    expect(asked.data.user?.new_email).toBe(victim)
    expect(asked.data.user?.email_change_sent_at).toBeTruthy()

    // the attacker's password does not open the victim's address
    const asVictim = await client().auth.signInWithPassword({ email: victim, password: PASSWORD })
    expect(asVictim.error).toMatchObject({ status: 400, code: 'invalid_credentials' })
    const row = await env.DB.prepare('SELECT email FROM auth_users WHERE email = ?')
      .bind(victim)
      .first()
    expect(row).toBeNull()
    const me = await supabase.auth.refreshSession()
    expect(me.data.user?.email).toBe(email)
    expect(decodeJwt(me.data.session!.access_token).email).toBe(email)
    // the victim can still sign up with their own address
    expect((await account(victim)).user.email).toBe(victim)
  })

  it("the site's export shows only the proven address's data while a change waits", async () => {
    const victim = unique()
    // the victim's message, kept under their address
    await env.DB.prepare(
      `INSERT INTO contact_messages (name, email, service, message, language)
       VALUES ('Victim', ?, 'seo', 'My private message about our store', 'en')`,
    )
      .bind(victim)
      .run()
    const { email } = await account()
    const { cookie } = await siteSession(email)
    const asked = await post('/auth/email', { email: victim }, cookie)
    expect(asked.headers.get('location')).toBe('/account#email')
    const page = await (await SELF.fetch(`${SITE}/account`, { headers: { Cookie: cookie } })).text()
    expect(page).toContain(victim)
    const exported = await post('/auth/account/data', {}, cookie)
    expect(exported.status).toBe(200)
    const text = await exported.text()
    expect(text).toContain(email)
    expect(text).not.toContain('My private message about our store')
  })

  it('updateUser({ email }) completes through the two links in the mail catcher', async () => {
    const { supabase, email, user } = await account()
    const next = unique()
    expect((await supabase.auth.updateUser({ email: next })).error).toBeNull()
    const [toNew] = await mailsOf(next, 1)
    const toCurrent = (await mailsOf(email, 1)).at(-1)!
    expect(toNew.subject).toBe(en.mail.email_change_subject)
    expect(toCurrent.subject).toBe(en.mail.email_change_current_subject)
    expect(toCurrent.body_text).toContain(next)

    // the new address's link alone is not enough: the current address must approve too
    const first = await client().auth.verifyOtp({
      token_hash: changeLinkOf(toNew),
      type: 'email_change',
    })
    expect(first.error).toBeNull()
    expect(first.data.session).toBeNull()
    expect((await supabase.auth.refreshSession()).data.user?.email).toBe(email)

    const second = await client().auth.verifyOtp({
      token_hash: changeLinkOf(toCurrent),
      type: 'email_change',
    })
    expect(second.error).toBeNull()
    expect(second.data.user?.email).toBe(next)
    expect(second.data.user?.new_email).toBeUndefined()
    expect(second.data.user?.id).toBe(user.id)

    // the account now signs in with the new address only, its password unchanged
    const byNew = await client().auth.signInWithPassword({ email: next, password: PASSWORD })
    expect(byNew.error).toBeNull()
    expect(byNew.data.user?.id).toBe(user.id)
    const byOld = await client().auth.signInWithPassword({ email, password: PASSWORD })
    expect(byOld.error?.code).toBe('invalid_credentials')
    // a link used once is spent
    const again = await client().auth.verifyOtp({
      token_hash: changeLinkOf(toNew),
      type: 'email_change',
    })
    expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' })
  })

  it('through the site: the account page asks, each link is a button, the last one signs in', async () => {
    const { email } = await account()
    const next = unique()
    const { cookie } = await siteSession(email)
    const same = await post('/auth/email', { email }, cookie)
    expect(same.headers.get('location')).toBe('/account?error=email_same&in=email#email')
    await post('/auth/email', { email: next }, cookie)
    const changeOf = async (to: string) => changeLinkOf((await mailsOf(to, 1)).at(-1)!)
    const tokenNew = await changeOf(next)
    const tokenCurrent = await changeOf(email)

    // following the link opens a page with a button; a scanner's GET spends nothing
    const page = await (
      await SELF.fetch(`${SITE}/auth/confirm?token_hash=${tokenNew}&type=email_change`)
    ).text()
    expect(page).toContain(en.auth.confirm_change_button)
    const half = await post('/auth/confirm', { token_hash: tokenNew, type: 'email_change' }, cookie)
    expect(half.headers.get('location')).toBe('/account#email')
    const done = await post('/auth/confirm', { token_hash: tokenCurrent, type: 'email_change' })
    expect(done.headers.get('location')).toBe('/account')
    const account2 = await (
      await SELF.fetch(`${SITE}/account`, { headers: { Cookie: cookieOf(done) } })
    ).text()
    expect(account2).toContain(next)
    expect(account2).not.toContain(en.auth.email_pending.split(':')[0])
  })

  it('an address taken while the change waited is refused, and a new password drops the change', async () => {
    const { supabase, email } = await account()
    const next = unique()
    await supabase.auth.updateUser({ email: next })
    const tokenNew = changeLinkOf((await mailsOf(next, 1))[0])
    const tokenCurrent = changeLinkOf((await mailsOf(email, 1)).at(-1)!)
    await account(next)
    expect(
      (await client().auth.verifyOtp({ token_hash: tokenNew, type: 'email_change' })).error,
    ).toBeNull()
    const taken = await client().auth.verifyOtp({ token_hash: tokenCurrent, type: 'email_change' })
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' })

    const other = await account()
    const third = unique()
    await other.supabase.auth.updateUser({ email: third })
    const link = changeLinkOf((await mailsOf(third, 1))[0])
    expect((await other.supabase.auth.updateUser({ password: 'another one 2' })).error).toBeNull()
    const dropped = await client().auth.verifyOtp({ token_hash: link, type: 'email_change' })
    expect(dropped.error).toMatchObject({ status: 403, code: 'otp_expired' })
  })

  it('a second request within a minute is refused, as GoTrue refuses it', async () => {
    const { supabase } = await account()
    expect((await supabase.auth.updateUser({ email: unique() })).error).toBeNull()
    const again = await supabase.auth.updateUser({ email: unique() })
    expect(again.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' })
  })

  it('with the secure setting off, the new address alone confirms, and the current one is told', async () => {
    const { supabase, email, user } = await account()
    const next = unique()
    const token = (await supabase.auth.getSession()).data.session!.access_token
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request(`${SITE}/auth/v1/user`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: next }),
      }),
      { ...env, AUTH_SECURE_EMAIL_CHANGE: 'false' },
      ctx,
    )
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(200)
    const told = (await mailsOf(email, 1)).at(-1)!
    expect(told.body_text).toContain(en.mail.email_change_current_notice)
    expect(told.body_text).not.toContain('type=email_change')
    const ctx2 = createExecutionContext()
    const verified = await app.fetch(
      new Request(`${SITE}/auth/v1/verify`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          type: 'email_change',
          token_hash: changeLinkOf((await mailsOf(next, 1))[0]),
        }),
      }),
      { ...env, AUTH_SECURE_EMAIL_CHANGE: 'false' },
      ctx2,
    )
    await waitOnExecutionContext(ctx2)
    expect(verified.status).toBe(200)
    expect(((await verified.json()) as { user: { id: string; email: string } }).user).toMatchObject(
      { id: user.id, email: next },
    )
  })
})

describe('aal2 wherever it matters (finding 2)', () => {
  it('PUT /user refuses a new address or password at aal1 for an account with a factor', async () => {
    const { email } = await withFactor()
    const aal1 = client()
    const signedIn = await aal1.auth.signInWithPassword({ email, password: PASSWORD })
    expect(decodeJwt(signedIn.data.session!.access_token).aal).toBe('aal1')
    for (const change of [{ password: 'taken over 9' }, { email: unique() }]) {
      const res = await aal1.auth.updateUser(change)
      expect(res.error).toMatchObject({ status: 401, code: 'insufficient_aal' })
    }
    // the password is unchanged
    expect((await client().auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull()
  })

  it('the aal1 session and the copied pending cookie open neither /account, the export nor /auth/password', async () => {
    const { email, secret } = await withFactor()
    const first = await post('/auth/sign-in', { email, password: PASSWORD })
    expect(first.headers.get('location')).toBe('/auth?mode=mfa')
    const pending = JSON.parse(
      decodeURIComponent(
        first.headers
          .getSetCookie()
          .find((c) => c.startsWith('sb-mfa-pending='))!
          .split(';')[0]
          .slice('sb-mfa-pending='.length),
      ),
    ) as { access_token: string; refresh_token: string }
    // the pending tokens copied into the session's cookies
    const copied = `sb-access-token=${pending.access_token}; sb-refresh-token=${pending.refresh_token}`

    const page = await SELF.fetch(`${SITE}/account`, {
      headers: { Cookie: copied },
      redirect: 'manual',
    })
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe('/auth?mode=mfa')
    const exported = await post('/auth/account/data', {}, copied)
    expect(exported.headers.get('location')).toBe('/auth?mode=mfa')
    expect(exported.headers.get('content-disposition')).toBeNull()
    const password = await post('/auth/password', { password: 'taken over 9' }, copied)
    expect(password.headers.get('location')).toBe('/auth?mode=mfa')
    expect(
      (await client().auth.signInWithPassword({ email, password: 'taken over 9' })).error?.code,
    ).toBe('invalid_credentials')

    // the code step, as at the sign-in form, then the page it was sent from
    const step = await post('/auth/mfa', { code: codeFor(secret, 1) }, cookieOf(page))
    expect(step.headers.get('location')).toBe('/account')
    const opened = await SELF.fetch(`${SITE}/account`, {
      headers: { Cookie: cookieOf(step) },
      redirect: 'manual',
    })
    expect(opened.status).toBe(200)
  })
})

describe('sessions (finding 3)', () => {
  it('a password reset signs out every session: an old refresh token is refused', async () => {
    const { email } = await account()
    const laptop = client()
    const old = await laptop.auth.signInWithPassword({ email, password: PASSWORD })
    const { cookie } = await siteSession(email)
    const sent = await post('/auth/recover', { email })
    expect(sent.headers.get('location')).toBe('/auth?mode=forgot&sent=1')
    const mail = (await mailsOf(email, 1)).find((m) => m.subject === en.auth.recovery_subject)!
    const token = new URL(
      mail.body_text.match(/https?:\/\/\S+\/auth\/reset\S+/)![0],
    ).searchParams.get('token')!
    const reset = await post('/auth/reset', { token, password: 'brand new pass 4' })
    expect(reset.headers.get('location')).toBe('/')

    const refreshed = await api('/token?grant_type=refresh_token', {
      method: 'POST',
      body: JSON.stringify({ refresh_token: old.data.session!.refresh_token }),
    })
    expect(refreshed.status).toBe(400)
    // the site's other session is signed out too
    const page = await SELF.fetch(`${SITE}/account`, {
      headers: { Cookie: cookie },
      redirect: 'manual',
    })
    expect(page.headers.get('location')).toBe('/auth?next=/account')
    // the reset's own session goes on
    const mine = await SELF.fetch(`${SITE}/account`, {
      headers: { Cookie: cookieOf(reset) },
      redirect: 'manual',
    })
    expect(mine.status).toBe(200)
  })

  it('a password change signs out every other session, and keeps this one', async () => {
    const { email, supabase } = await account()
    const phone = client()
    const other = await phone.auth.signInWithPassword({ email, password: PASSWORD })
    expect((await supabase.auth.updateUser({ password: 'changed pass 5' })).error).toBeNull()
    const refreshed = await api('/token?grant_type=refresh_token', {
      method: 'POST',
      body: JSON.stringify({ refresh_token: other.data.session!.refresh_token }),
    })
    expect(refreshed.status).toBe(400)
    expect((await supabase.auth.refreshSession()).error).toBeNull()
  })

  it('"Sign out everywhere" on /account ends every session, this one included', async () => {
    const { email } = await account()
    const phone = client()
    const other = await phone.auth.signInWithPassword({ email, password: PASSWORD })
    const { cookie } = await siteSession(email)
    const page = await (await SELF.fetch(`${SITE}/account`, { headers: { Cookie: cookie } })).text()
    expect(page).toContain(en.auth.sign_out_everywhere)
    const out = await post('/auth/sign-out', { scope: 'global' }, cookie)
    expect(out.headers.get('location')).toBe('/')
    const refreshed = await api('/token?grant_type=refresh_token', {
      method: 'POST',
      body: JSON.stringify({ refresh_token: other.data.session!.refresh_token }),
    })
    expect(refreshed.status).toBe(400)
  })

  describe('a maximum age (AUTH_SESSION_MAX_AGE, 30 days)', () => {
    afterEach(() => vi.useRealTimers())

    it('refreshes until the session is 30 days old, and no token outlives it', async () => {
      const { email } = await account()
      const supabase = client()
      const start = Date.now()
      const signedIn = await supabase.auth.signInWithPassword({ email, password: PASSWORD })
      let refreshToken = signedIn.data.session!.refresh_token
      const refresh = () =>
        api('/token?grant_type=refresh_token', {
          method: 'POST',
          body: JSON.stringify({ refresh_token: refreshToken }),
        })
      vi.useFakeTimers({ toFake: ['Date'], now: start + (30 * 86400 - 600) * 1000 })
      const late = await refresh()
      expect(late.status).toBe(200)
      const body = (await late.json()) as { refresh_token: string; expires_at: number }
      // ten minutes left: the access token ends with the session, not an hour later
      expect(body.expires_at).toBeLessThanOrEqual(Math.floor(start / 1000) + 30 * 86400 + 1)
      refreshToken = body.refresh_token
      vi.setSystemTime(start + (30 * 86400 + 60) * 1000)
      const over = await refresh()
      expect(over.status).toBe(400)
      expect(await over.json()).toMatchObject({ error_code: 'session_expired' })
    })
  })
})
