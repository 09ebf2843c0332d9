import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import app from '../../worker/index'
import type { Bindings } from '../../worker/bindings'
import { DUMMY_TOKEN, TOKEN_FIELD, withCaptcha } from './challenge'

/**
 * The bot of issue 45: plain HTTP, no browser, the headers a browser would send forged, a new
 * IP for every post, and no token or one siteverify refuses. Against every form and endpoint
 * that e-mails the address typed in it, it must get no e-mail sent and never a 5xx.
 */

const SITE = 'https://example.com'
/** Cloudflare's test secret that refuses every token: as a bot's made-up token fares. */
const FAILING_SECRET = '2x0000000000000000000000000000000AA'

let ip = 0
const nextIp = () => `192.0.2.${(++ip % 250) + 1}`
const unique = (prefix = 'victim') => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.org`

type Body = Record<string, unknown>
/** One post as the bot sends it, through the Worker with `overrides` on its bindings. */
async function send(
  path: string,
  body: Body,
  {
    form = false,
    overrides = {},
    lang,
  }: { form?: boolean; overrides?: Partial<Bindings>; lang?: string } = {},
) {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(SITE + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json',
        Origin: SITE,
        'Sec-Fetch-Site': 'same-origin',
        'CF-Connecting-IP': nextIp(),
        ...(lang ? { 'Accept-Language': lang } : {}),
      },
      body: form
        ? new URLSearchParams(body as Record<string, string>).toString()
        : JSON.stringify(body),
    }),
    { ...env, ...overrides } as Bindings,
    ctx,
  )
  await waitOnExecutionContext(ctx)
  return res
}

/** E-mails to the address that were sent or are on their way (not suppressed, not held). */
const mailsOut = async (to: string) =>
  (await env.DB.prepare(
    `SELECT count(*) AS n FROM mail_outbox WHERE to_address = ? COLLATE NOCASE
       AND status IN ('queued', 'sending', 'sent', 'failed')`,
  )
    .bind(to)
    .first<{ n: number }>())!.n

/** The first slot the booking page offers now, four in (the first may pass the notice). */
async function freeSlot() {
  const res = await app.fetch(
    new Request(`${SITE}/api/bookings/slots`),
    env,
    createExecutionContext(),
  )
  const { slots } = (await res.json()) as { slots: string[] }
  return slots[3 + Math.floor(Math.random() * Math.max(1, slots.length - 4))]
}

/** The token where GoTrue's clients send it (supabase-js's `captchaToken`). */
const captcha = (token?: string) => (token ? withCaptcha({}, token) : {})
/** The token as the page's widget puts it in a form the browser posts. */
const widgetField = (token?: string) => (token ? { [TOKEN_FIELD]: token } : {})

/** Every form and endpoint that e-mails a typed address, as the bot posts to each. */
const TARGETS: {
  name: string
  path: string
  form?: boolean
  body: (email: string, token?: string) => Promise<Body> | Body
}[] = [
  {
    name: 'welcome popup',
    path: '/api/email-signup',
    body: (email, token) => ({ name: 'Bot', email, source: 'website', challengeToken: token }),
  },
  {
    name: 'welcome popup (form)',
    path: '/api/email-signup',
    form: true,
    body: (email, token) => ({ name: 'Bot', email, ...widgetField(token) }),
  },
  {
    name: 'newsletter (JSON)',
    path: '/api/newsletter',
    body: (email, token) => ({ email, challengeToken: token }),
  },
  {
    name: 'newsletter (form)',
    path: '/api/newsletter',
    form: true,
    body: (email, token) => ({ email, ...(token ? { 'cf-turnstile-response': token } : {}) }),
  },
  {
    name: 'free guide (JSON)',
    path: '/api/guide-requests',
    body: (email, token) => ({
      name: 'Bot',
      email,
      guide: 'conversion-masterclass',
      challengeToken: token,
    }),
  },
  {
    name: 'free guide (form)',
    path: '/api/guide-requests',
    form: true,
    body: (email, token) => ({
      name: 'Bot',
      email,
      guide: 'conversion-masterclass',
      ...widgetField(token),
    }),
  },
  {
    name: 'booking (JSON)',
    path: '/api/bookings',
    body: async (email, token) => ({
      slot: await freeSlot(),
      name: 'Bot',
      email,
      challengeToken: token,
    }),
  },
  {
    name: 'booking (form)',
    path: '/api/bookings',
    form: true,
    body: async (email, token) => ({
      slot: await freeSlot(),
      name: 'Bot',
      email,
      ...widgetField(token),
    }),
  },
  {
    name: 'data request',
    path: '/privacy/request',
    form: true,
    body: (email, token) => ({
      email,
      action: 'export',
      ...widgetField(token),
    }),
  },
  {
    name: 'sign-up API',
    path: '/auth/v1/signup',
    body: (email, token) => ({
      email,
      password: 'correct horse 1',
      ...captcha(token),
    }),
  },
  {
    name: 'magic link API',
    path: '/auth/v1/otp',
    body: (email, token) => ({
      email,
      create_user: true,
      ...captcha(token),
    }),
  },
  {
    name: 'recovery API',
    path: '/auth/v1/recover',
    body: (email, token) => ({
      email,
      ...captcha(token),
    }),
  },
  {
    name: 'resend API',
    path: '/auth/v1/resend',
    body: (email, token) => ({
      type: 'signup',
      email,
      ...captcha(token),
    }),
  },
  {
    name: 'sign-up form',
    path: '/auth/sign-up',
    form: true,
    body: (email, token) => ({
      email,
      password: 'correct horse 1',
      ...widgetField(token),
    }),
  },
  {
    name: 'sign-in link form',
    path: '/auth/magic-link',
    form: true,
    body: (email, token) => ({ email, ...(token ? { 'cf-turnstile-response': token } : {}) }),
  },
  {
    name: 'password reset form',
    path: '/auth/recover',
    form: true,
    body: (email, token) => ({ email, ...(token ? { 'cf-turnstile-response': token } : {}) }),
  },
]

describe('the bot replay: no token or a bad one, forged headers, a new IP each time', () => {
  it(
    'sends no e-mail through any form or endpoint, and never answers 5xx',
    { timeout: 60_000 },
    async () => {
      // one victim, whose account exists (so recovery and sign-in links would have something to
      // send), and fresh strangers
      const victim = unique('victim')
      const made = await send('/auth/v1/signup', {
        email: victim,
        password: 'correct horse 1',
        gotrue_meta_security: { captcha_token: DUMMY_TOKEN },
      })
      expect(made.status).toBe(200)
      const before = await mailsOut(victim)
      const figures: { name: string; posts: number; mails: number; statuses: number[] }[] = []
      for (const target of TARGETS) {
        const strangers: string[] = []
        const statuses: number[] = []
        for (let i = 0; i < 8; i++) {
          // half without a token, half with one siteverify refuses; every other post to the victim
          const bad = i % 2 === 1
          const email = i % 4 === 0 ? victim : unique()
          if (email !== victim) strangers.push(email)
          const res = await send(
            target.path,
            await target.body(email, bad ? 'made-up.token.value' : undefined),
            { form: target.form, overrides: bad ? { TURNSTILE_SECRET_KEY: FAILING_SECRET } : {} },
          )
          statuses.push(res.status)
        }
        let mails = 0
        for (const s of strangers) mails += await mailsOut(s)
        figures.push({ name: target.name, posts: 8, mails, statuses })
      }
      const victimMails = (await mailsOut(victim)) - before
      console.log(
        'bot replay:\n' +
          figures.map((f) => `  ${f.name}: ${f.posts} posts, ${f.mails} e-mails`).join('\n') +
          `\n  the victim: ${victimMails} e-mails`,
      )
      expect(figures.filter((f) => f.mails > 0)).toEqual([])
      expect(victimMails).toBe(0)
      expect(figures.flatMap((f) => f.statuses).filter((s) => s >= 500)).toEqual([])
    },
  )
})

describe('each refusal of siteverify: localized, no 5xx, nothing stored', () => {
  const cases = [
    ['no token', undefined, 'challenge_missing'],
    ['a token siteverify refuses', 'standin-case:invalid', 'challenge_failed'],
    ['a token already spent', 'standin-case:duplicate', 'challenge_expired'],
    ['a token made on another site', 'standin-case:hostname', 'challenge_failed'],
    ['a token made for another form', 'standin-case:action', 'challenge_failed'],
    ['siteverify answering HTML', 'standin-case:not-json', 'challenge_unavailable'],
    ['siteverify not answering in time', 'standin-case:timeout', 'challenge_unavailable'],
  ] as const
  for (const [what, token, key] of cases)
    for (const [lang, messages] of [
      ['en', en],
      ['ar', ar],
    ] as const)
      it(`${what} (${lang})`, async () => {
        const email = unique('refused')
        const res = await send(
          '/api/newsletter',
          { email, challengeToken: token },
          { lang, overrides: { TURNSTILE_TIMEOUT_MS: '800' } },
        )
        expect(res.status).toBe(403)
        expect(await res.json()).toMatchObject({ error: messages.errors[key] })
        const stored = await env.DB.prepare('SELECT count(*) AS n FROM subscribers WHERE email = ?')
          .bind(email)
          .first<{ n: number }>()
        expect(stored!.n).toBe(0)
        expect(await mailsOut(email)).toBe(0)
      })

  it('asks siteverify with the secret, the visitor’s IP and an idempotency key', async () => {
    const token = `probe-${crypto.randomUUID()}`
    const res = await send('/api/newsletter', { email: unique('probe'), challengeToken: token })
    expect(res.status).toBe(200)
    const calls = (await (
      await fetch(`${env.TURNSTILE_STANDIN_URL}/__standin/verifications?token=${token}`)
    ).json()) as { remoteip: string; idempotency_key: string; secret: string }[]
    expect(calls).toHaveLength(1)
    expect(calls[0].remoteip).toMatch(/^192\.0\.2\.\d+$/)
    expect(calls[0].idempotency_key).toMatch(/^[0-9a-f-]{36}$/)
    expect(calls[0].secret).toBe('1x')
  })

  it('refuses a spent token on the auth service as GoTrue does (400 captcha_failed)', async () => {
    const res = await send('/auth/v1/signup', {
      email: unique('gotrue'),
      password: 'correct horse 1',
      gotrue_meta_security: { captcha_token: 'standin-case:duplicate' },
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      code: 400,
      error_code: 'captcha_failed',
      msg: 'captcha protection: request disallowed (timeout-or-duplicate)',
    })
    const missing = await send('/auth/v1/otp', { email: unique('gotrue'), create_user: true })
    expect(await missing.json()).toEqual({
      code: 400,
      error_code: 'captcha_failed',
      msg: 'captcha protection: request disallowed (no captcha_token found)',
    })
  })
})

describe('without JavaScript: stored, marked, and no e-mail', () => {
  it('keeps a newsletter sign-up, says no e-mail went, and the desk can see the mark', async () => {
    const email = unique('nojs')
    const res = await send('/api/newsletter', { email }, { form: true })
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toContain(en.notices.newsletter_unchecked_title)
    const row = await env.DB.prepare('SELECT status, unchecked FROM subscribers WHERE email = ?')
      .bind(email)
      .first()
    expect(row).toEqual({ status: 'pending', unchecked: 1 })
    expect(await mailsOut(email)).toBe(0)
  })

  it('lets a guide download at once, stored and marked, with nothing e-mailed', async () => {
    const email = unique('nojs')
    const res = await send(
      '/api/guide-requests',
      { name: 'Ada', email, guide: 'social-media-growth-kit' },
      { form: true },
    )
    expect(res.status).toBe(200)
    const page = await res.text()
    // the file at once; the copy by e-mail waits for the challenge, which needs JavaScript
    expect(page).toContain(en.notices.download_unchecked_text.split('}}').at(-1)!.trim())
    expect(page).toMatch(/href="\/guides\/social-media-growth-kit[^"]*"/)
    const row = await env.DB.prepare('SELECT unchecked FROM guide_requests WHERE email = ?')
      .bind(email)
      .first()
    expect(row).toEqual({ unchecked: 1 })
    expect(await mailsOut(email)).toBe(0)
  })
})

describe('a stranger’s inbox has a ceiling', () => {
  it('sends an unconfirmed address at most two form e-mails a day, from all forms together', async () => {
    const email = unique('ceiling')
    const token = DUMMY_TOKEN
    expect(
      (
        await send('/api/email-signup', {
          name: 'A',
          email,
          source: 'website',
          challengeToken: token,
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await send('/api/guide-requests', {
          name: 'A',
          email,
          guide: 'conversion-masterclass',
          challengeToken: token,
        })
      ).status,
    ).toBe(200)
    expect(
      (
        await send('/api/guide-requests', {
          name: 'A',
          email,
          guide: 'social-media-growth-kit',
          challengeToken: token,
        })
      ).status,
    ).toBe(200)
    const rows = (
      await env.DB.prepare(
        'SELECT kind, status, hold_reason FROM mail_outbox WHERE to_address = ? ORDER BY id',
      )
        .bind(email)
        .all()
    ).results
    expect(rows.map((r) => (r.status === 'suppressed' ? 'suppressed' : 'sent on'))).toEqual([
      'sent on',
      'sent on',
      'suppressed',
    ])
    expect(rows[2]).toMatchObject({ kind: 'guide', hold_reason: 'address_ceiling' })
  })

  it('does not count a confirmed subscriber', async () => {
    const email = unique('confirmed')
    await env.DB.prepare(
      `INSERT INTO subscribers (email, source, signup_form, language, consent_version, status)
       VALUES (?, 'website', 'newsletter', 'en', '2026-11-01', 'confirmed')`,
    )
      .bind(email)
      .run()
    for (const guide of [
      'conversion-masterclass',
      'social-media-growth-kit',
      'invisible-business-mistakes',
    ])
      await send('/api/guide-requests', { name: 'A', email, guide, challengeToken: DUMMY_TOKEN })
    expect(await mailsOut(email)).toBe(3)
  })

  it('holds form e-mails past the hourly site-wide limit, until the desk sends or drops them', async () => {
    const { n } = (await env.DB.prepare(
      `SELECT count(*) AS n FROM mail_outbox WHERE unconfirmed = 1 AND status != 'suppressed'
       AND created_at > ?`,
    )
      .bind(new Date(Date.now() - 3600_000).toISOString())
      .first<{ n: number }>())!
    const overrides = { MAIL_UNCONFIRMED_HOURLY_LIMIT: String(n + 1) }
    const first = unique('surge')
    const second = unique('surge')
    await send('/api/newsletter', { email: first, challengeToken: DUMMY_TOKEN }, { overrides })
    await send('/api/newsletter', { email: second, challengeToken: DUMMY_TOKEN }, { overrides })
    const status = (to: string) =>
      env.DB.prepare('SELECT status, hold_reason FROM mail_outbox WHERE to_address = ?')
        .bind(to)
        .first()
    expect(await status(first)).toMatchObject({ hold_reason: null })
    expect(await status(second)).toEqual({ status: 'held', hold_reason: 'surge' })
  })
})

describe('the desk and the held e-mails', () => {
  it('shows a notice on every desk page while e-mails are held, until staff send or drop them', async () => {
    const { person, get, post } = await import('./desk/helpers')
    const staff = await person({ staff: true, secondFactor: true })
    const held = async (to: string) => {
      await env.DB.prepare(
        `INSERT INTO mail_outbox (kind, data, category, language, to_address, site_url, subject,
           status, hold_reason, unconfirmed)
         VALUES ('subscribe_confirm', '{"name":"","nonce":"x"}', 'transactional', 'en', ?,
           'https://example.com', 'Please confirm', 'held', 'surge', 1)`,
      )
        .bind(to)
        .run()
    }
    const kept = unique('held')
    const dropped = unique('held')
    await held(kept)
    const desk = await (await get('/desk', staff.cookie)).text()
    expect(desk).toMatch(/e-mails? from the forms (is|are) waiting for you/)
    const mail = await (await get('/desk/mail?status=held', staff.cookie)).text()
    expect(mail).toContain(en.desk.held_mail.release)
    expect(mail).toContain(kept)

    const released = await post('/desk/mail/held/release', {}, staff.cookie)
    expect(released.status).toBe(303)
    expect(released.headers.get('Location')).toBe('/desk/mail?done=released')
    const after = await env.DB.prepare('SELECT status FROM mail_outbox WHERE to_address = ?')
      .bind(kept)
      .first<{ status: string }>()
    expect(after!.status).not.toBe('held')
    expect(await (await get('/desk', staff.cookie)).text()).not.toContain('waiting for you')

    await held(dropped)
    await post('/desk/mail/held/drop', {}, staff.cookie)
    expect(
      await env.DB.prepare('SELECT status FROM mail_outbox WHERE to_address = ?')
        .bind(dropped)
        .first(),
    ).toEqual({ status: 'suppressed' })
  })
})

describe('a form whose e-mail is over the ceiling says so', () => {
  it('answers mailed: false, and the booking and data request pages say no e-mail went', async () => {
    const email = unique('over')
    const overrides = { MAIL_UNCONFIRMED_DAILY_LIMIT: '0' }
    const signup = await send(
      '/api/newsletter',
      { email, challengeToken: DUMMY_TOKEN },
      { overrides },
    )
    expect(await signup.json()).toEqual({ alreadySubscribed: false, mailed: false })
    const data = await send(
      '/privacy/request',
      { email, action: 'export', 'cf-turnstile-response': DUMMY_TOKEN },
      { form: true, overrides },
    )
    expect(await data.text()).toContain(en.privacy_request.not_sent_title)
    const booked = await send(
      '/api/bookings',
      { slot: await freeSlot(), name: 'Ada', email, challengeToken: DUMMY_TOKEN },
      { overrides },
    )
    expect(((await booked.json()) as { booking: { mailed: boolean } }).booking.mailed).toBe(false)
    expect(await mailsOut(email)).toBe(0)
  })
})
