import { createClient } from '@supabase/supabase-js'
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import en from '../../../locales/en.json'
import app from '../../../worker/index'
import { DUMMY_TOKEN, TOKEN_FIELD } from '../challenge'
import { lastMail } from '../inbox'
import { SITE, unique } from './helpers'

// With AUTH_AUTOCONFIRM off (the default), a sign-up is only an account once the link mailed
// to the address is followed: nobody opens an account in someone else's name.

const confirming = { ...env, AUTH_AUTOCONFIRM: 'false' }

async function send(request: Request) {
  const ctx = createExecutionContext()
  const res = await app.fetch(request, confirming, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

const supabase = () =>
  createClient(SITE, 'anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: {
      fetch: (input, init) => {
        const request = new Request(input as RequestInfo, init)
        request.headers.set('CF-Connecting-IP', `192.0.2.${Math.floor(Math.random() * 250)}`)
        return send(request)
      },
    },
  })

describe('sign-up with e-mail confirmation', () => {
  it('signUp returns no session until the mailed link is followed; then sign-in works', async () => {
    const email = unique('confirm')
    const auth = supabase().auth
    const up = await auth.signUp({
      email,
      password: 'correct horse 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    expect(up.error).toBeNull()
    expect(up.data.session).toBeNull()
    expect(up.data.user?.email).toBe(email)
    expect(up.data.user?.email_confirmed_at).toBeFalsy()

    const early = await auth.signInWithPassword({ email, password: 'correct horse 1' })
    expect(early.error?.code).toBe('email_not_confirmed')

    const mail = await lastMail(email)
    expect(mail.subject).toBe(en.mail.confirm_subject)
    const link = new URL(mail.body_text.match(/https?:\/\/\S+/)![0])
    expect(link.pathname).toBe('/auth/confirm')
    expect(link.searchParams.get('type')).toBe('signup')

    const verified = await auth.verifyOtp({
      token_hash: link.searchParams.get('token_hash')!,
      type: 'signup',
    })
    expect(verified.error).toBeNull()
    expect(verified.data.session?.access_token).toBeTruthy()
    expect(verified.data.user?.email_confirmed_at).toBeTruthy()

    const later = await auth.signInWithPassword({ email, password: 'correct horse 1' })
    expect(later.error).toBeNull()
    expect(later.data.session).not.toBeNull()
  })

  it("the site's sign-up form says to check the inbox, and the link's page confirms and signs in", async () => {
    const email = unique('confirm-form')
    const posted = await send(
      new Request(`${SITE}/auth/sign-up`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: SITE,
          'CF-Connecting-IP': '198.51.100.77',
        },
        body: new URLSearchParams({
          email,
          password: 'correct horse 1',
          [TOKEN_FIELD]: DUMMY_TOKEN,
        }).toString(),
      }),
    )
    expect(posted.status).toBe(303)
    const location = posted.headers.get('location')!
    expect(location).toBe(`/auth?${new URLSearchParams({ mode: 'sign-up', sent: '1', email })}`)
    expect(posted.headers.get('set-cookie') ?? '').not.toContain('sb-access-token=ey')
    const page = await (await send(new Request(SITE + location))).text()
    expect(page).toContain(en.auth.confirm_sent_title)
    expect(page).toContain(email)

    const mail = await lastMail(email)
    const link = new URL(mail.body_text.match(/https?:\/\/\S+/)![0])
    const confirmPage = await (await send(new Request(SITE + link.pathname + link.search))).text()
    expect(confirmPage).toContain('name="type" value="signup"')
    const confirmed = await send(
      new Request(`${SITE}/auth/confirm`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: SITE,
          'CF-Connecting-IP': '198.51.100.78',
        },
        body: new URLSearchParams({
          token_hash: link.searchParams.get('token_hash')!,
          type: 'signup',
        }).toString(),
      }),
    )
    expect(confirmed.status).toBe(303)
    expect(confirmed.headers.get('location')).toBe('/')
    expect(confirmed.headers.getSetCookie().some((c) => c.startsWith('sb-access-token=ey'))).toBe(
      true,
    )
  })
})

describe('an address confirmed by another link than its sign-up', () => {
  it("ends the password of whoever signed up in its owner's name", async () => {
    const email = unique('pretakeover')
    const attacker = supabase().auth
    await attacker.signUp({
      email,
      password: 'attacker password 1',
      options: { captchaToken: DUMMY_TOKEN },
    })
    // the owner asks for a sign-in link and follows it: the address is theirs now
    const owner = supabase().auth
    expect(
      (
        await owner.signInWithOtp({
          email,
          options: { shouldCreateUser: false, captchaToken: DUMMY_TOKEN },
        })
      ).error,
    ).toBeNull()
    const mail = await lastMail(email, 2)
    const link = new URL(mail.body_text.match(/https?:\/\/\S+/)![0])
    const signedIn = await owner.verifyOtp({
      token_hash: link.searchParams.get('token_hash')!,
      type: 'magiclink',
    })
    expect(signedIn.error).toBeNull()
    const again = await attacker.signInWithPassword({ email, password: 'attacker password 1' })
    expect(again.error?.code).toBe('invalid_credentials')
  })
})
