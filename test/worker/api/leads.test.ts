import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { DUMMY_TOKEN, TOKEN_FIELD, withToken } from '../challenge'
import { freshMinute } from '../clock'
import { randomIp } from '../random-ip'
import { lastMail, outboxRows } from '../inbox'
import de from '../../../locales/de.json'
import en from '../../../locales/en.json'
import app from '../../../worker/index'

let ipCounter = 0
/** A fresh client address per call unless given, so the per-IP limit only bites where meant. */
const nextIp = () => `203.0.113.${++ipCounter % 250}`

/** JSON as an island posts it: with its challenge token where the form e-mails the address. */
function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const json =
    typeof body === 'string'
      ? body
      : JSON.stringify(path === '/api/contact' ? body : withToken(body))
  return SELF.fetch(`https://example.com${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': nextIp(), ...headers },
    body: json,
  })
}

const rows = (sql: string, ...params: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...params)
    .all<Record<string, unknown>>()
    .then((r) => r.results)

const unique = () => `person${crypto.randomUUID().slice(0, 8)}@example.org`

describe('POST /api/email-signup', () => {
  it('stores a new subscriber, e-mail normalised, with language, form and consent version', async () => {
    const email = unique()
    const res = await post(
      '/api/email-signup',
      { name: ' Ada ', email: `  ${email.toUpperCase()} `, source: 'website' },
      { 'Accept-Language': 'fr-FR' },
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ alreadySubscribed: false, mailed: true })
    const [row] = await rows('SELECT * FROM subscribers WHERE email = ?', email)
    expect(row).toMatchObject({
      email,
      name: 'Ada',
      source: 'website',
      signup_form: 'welcome_popup',
      language: 'fr',
    })
    expect(row.consent_version).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(Date.parse(row.created_at as string)).toBeGreaterThan(Date.now() - 60_000)
  })

  it('answers alreadySubscribed for the same e-mail in other case and spacing, changing nothing', async () => {
    const email = unique()
    await post('/api/email-signup', { name: 'First', email, source: 'website' })
    const before = await rows('SELECT * FROM subscribers WHERE email = ?', email)
    const res = await post('/api/email-signup', {
      name: 'Second',
      email: `\t${email.toUpperCase()}  `,
      source: 'website',
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ alreadySubscribed: true, mailed: false })
    expect(await rows('SELECT * FROM subscribers WHERE email = ?', email)).toEqual(before)
  })

  const invalid: [string, unknown][] = [
    ['missing name', { email: 'a@example.org', source: 'website' }],
    ['missing email', { name: 'A', source: 'website' }],
    ['empty fields', { name: '  ', email: '', source: 'website' }],
    ['name not a string', { name: 42, email: 'a@example.org', source: 'website' }],
    ['email not a string', { name: 'A', email: ['a@example.org'], source: 'website' }],
    ['bad email', { name: 'A', email: 'not-an-email', source: 'website' }],
    ['email without domain dot', { name: 'A', email: 'a@localhost', source: 'website' }],
    ['email too long', { name: 'A', email: `${'a'.repeat(250)}@example.org`, source: 'website' }],
    ['name too long', { name: 'A'.repeat(101), email: 'a@example.org', source: 'website' }],
    ['other source', { name: 'A', email: 'a@example.org', source: 'partner' }],
    ['extra junk', { name: 'A', email: 'a@example.org', source: 'website', admin: true }],
    ['an array', [{ name: 'A', email: 'a@example.org', source: 'website' }]],
    ['null', null],
  ]
  it.each(invalid)('refuses %s with 400 and a message, storing nothing', async (_, body) => {
    const before = await rows('SELECT count(*) AS n FROM subscribers')
    const res = await post('/api/email-signup', body)
    expect(res.status).toBe(400)
    const json = (await res.json()) as { error: string }
    expect(json.error.length).toBeGreaterThan(5)
    expect(await rows('SELECT count(*) AS n FROM subscribers')).toEqual(before)
  })

  it('localizes the error in the visitor language', async () => {
    const res = await post(
      '/api/email-signup',
      { name: 'A', email: 'nope', source: 'website' },
      { 'Accept-Language': 'de' },
    )
    expect(await res.json()).toMatchObject({
      error: de.errors.invalid_email,
      fields: { email: de.errors.invalid_email },
    })
    const empty = await post('/api/email-signup', { name: '', email: '', source: 'website' })
    expect(await empty.json()).toMatchObject({ error: en.errors.required })
  })

  it('refuses a body that is not JSON (400), of another type (415) or over 16 KB (413)', async () => {
    expect((await post('/api/email-signup', '{"name": "A", ')).status).toBe(400)
    const text = await SELF.fetch('https://example.com/api/email-signup', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'CF-Connecting-IP': nextIp() },
      body: 'name=A&email=a%40example.org',
    })
    expect(text.status).toBe(415)
    // the popup's form, posted by the browser before its script came: the form again, which
    // sends itself once the page's scripts run (docs/bots.md), and nothing e-mailed
    const email = unique()
    const form = await SELF.fetch('https://example.com/api/email-signup', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'CF-Connecting-IP': nextIp(),
      },
      body: new URLSearchParams({ name: 'A', email, website: '' }).toString(),
    })
    expect(form.status).toBe(200)
    const page = await form.text()
    expect(page).toContain(en.notices.newsletter_unchecked_text)
    expect(page).toContain('data-challenge="welcome-popup"')
    expect(await rows('SELECT unchecked FROM subscribers WHERE email = ?', email)).toEqual([
      { unchecked: 1 },
    ])
    expect(await outboxRows(email)).toEqual([])
    const megabyte = JSON.stringify({
      name: 'A',
      email: 'a@example.org',
      source: 'website',
      pad: 'x'.repeat(1024 * 1024),
    })
    const big = await post('/api/email-signup', megabyte)
    expect(big.status).toBe(413)
    expect(await big.json()).toEqual({ error: en.errors.too_large })
  })

  it('refuses cross-site posts: a foreign Origin or Sec-Fetch-Site', async () => {
    const body = { name: 'A', email: unique(), source: 'website' }
    const foreign = await post('/api/email-signup', body, { Origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect(await foreign.json()).toEqual({ error: en.errors.cross_site })
    expect((await post('/api/email-signup', body, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(
      403,
    )
    expect(await rows('SELECT * FROM subscribers WHERE email = ?', body.email)).toEqual([])
    // our own pages are welcome
    expect(
      (
        await post('/api/email-signup', body, {
          Origin: 'https://example.com',
          'Sec-Fetch-Site': 'same-origin',
        })
      ).status,
    ).toBe(200)
  })

  it('answers a filled honeypot like a success and stores nothing', async () => {
    const email = unique()
    const res = await post('/api/email-signup', {
      name: 'Bot',
      email,
      source: 'website',
      website: 'http://spam.example',
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ alreadySubscribed: false, mailed: true })
    expect(await rows('SELECT * FROM subscribers WHERE email = ?', email)).toEqual([])
  })

  // up to 10 s more: the wait for a fresh minute (clock.ts)
  it(
    'limits one address to 10 submissions a minute (429), others unaffected',
    { timeout: 60_000 },
    async () => {
      const ip = randomIp()
      await freshMinute()
      const statuses = []
      for (let i = 0; i < 12; i++)
        statuses.push(
          (
            await post(
              '/api/email-signup',
              { name: 'A', email: unique(), source: 'website' },
              { 'CF-Connecting-IP': ip },
            )
          ).status,
        )
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200))
      expect(statuses.slice(10)).toEqual([429, 429])
      const limited = await post(
        '/api/email-signup',
        { name: 'A', email: unique(), source: 'website' },
        { 'CF-Connecting-IP': ip },
      )
      expect(limited.headers.get('retry-after')).toBe('60')
      expect(await limited.json()).toEqual({ error: en.errors.rate_limited })
      expect(
        (
          await post(
            '/api/email-signup',
            { name: 'A', email: unique(), source: 'website' },
            { 'CF-Connecting-IP': randomIp() },
          )
        ).status,
      ).toBe(200)
    },
  )

  it('answers 503 with a clear message when D1 fails, never a 500', async () => {
    const failing = {
      prepare: () => {
        throw new Error('D1_ERROR: database is unavailable')
      },
      batch: () => Promise.reject(new Error('D1_ERROR')),
    }
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request('https://example.com/api/email-signup', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(withToken({ name: 'A', email: unique(), source: 'website' })),
      }),
      { ...env, DB: failing as unknown as D1Database },
      ctx,
    )
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ error: en.errors.unavailable })
  })

  it('stores exactly one row per e-mail under 50 concurrent signups of 10 addresses', async () => {
    const emails = Array.from({ length: 10 }, unique)
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post('/api/email-signup', {
          name: `N${i}`,
          email: i % 2 ? emails[i % 10].toUpperCase() : emails[i % 10],
          source: 'website',
        }).then(async (r) => ({
          status: r.status,
          email: emails[i % 10],
          ...((await r.json()) as { alreadySubscribed: boolean }),
        })),
      ),
    )
    expect(answers.every((a) => a.status === 200)).toBe(true)
    const stored = await rows(
      `SELECT email FROM subscribers WHERE email IN (${emails.map(() => '?').join(',')})`,
      ...emails,
    )
    expect(stored).toHaveLength(10)
    for (const email of emails) {
      const mine = answers.filter((a) => a.email === email)
      expect(mine).toHaveLength(5)
      expect(mine.filter((a) => !a.alreadySubscribed)).toHaveLength(1)
    }
  })
})

describe('POST /api/guide-requests and the guide files', () => {
  it('stores the request and the subscriber, and hands back the real guide in the visitor language', async () => {
    const email = unique()
    const res = await post(
      '/api/guide-requests',
      { name: 'Grace', email, guide: 'conversion-masterclass' },
      { 'Accept-Language': 'es' },
    )
    expect(res.status).toBe(200)
    const json = (await res.json()) as { alreadySubscribed: boolean; downloadUrl: string }
    expect(json).toEqual({
      alreadySubscribed: false,
      mailed: true,
      downloadUrl: '/guides/conversion-masterclass?lang=es&download=1',
    })
    expect(
      await rows('SELECT name, guide, language FROM guide_requests WHERE email = ?', email),
    ).toEqual([{ name: 'Grace', guide: 'conversion-masterclass', language: 'es' }])
    expect(await rows('SELECT signup_form FROM subscribers WHERE email = ?', email)).toEqual([
      { signup_form: 'guide' },
    ])
    // a second guide: another request, the same subscriber
    const again = await post('/api/guide-requests', {
      name: 'Grace',
      email,
      guide: 'social-media-growth-kit',
    })
    expect(await again.json()).toMatchObject({ alreadySubscribed: true })
    expect(
      await rows('SELECT guide FROM guide_requests WHERE email = ? ORDER BY id', email),
    ).toHaveLength(2)

    const file = await SELF.fetch(`https://example.com${json.downloadUrl}`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-disposition')).toBe(
      'attachment; filename="conversion-masterclass-es.html"',
    )
    const html = await file.text()
    expect(html).toMatch(/^<!DOCTYPE html><html lang="es" dir="ltr">/)
    expect(html).toContain('Masterclass de optimización de la conversión')
    expect(html.length).toBeGreaterThan(8000)
  })

  it('refuses an unknown guide or a missing name', async () => {
    expect(
      (await post('/api/guide-requests', { name: 'A', email: unique(), guide: 'secret' })).status,
    ).toBe(400)
    const res = await post('/api/guide-requests', {
      name: '',
      email: unique(),
      guide: 'conversion-masterclass',
    })
    expect(res.status).toBe(400)
    expect((await SELF.fetch('https://example.com/guides/secret')).status).toBe(404)
  })

  it('serves each guide in each language as a readable page', async () => {
    for (const slug of [
      'invisible-business-mistakes',
      'social-media-growth-kit',
      'conversion-masterclass',
    ])
      for (const lang of ['en', 'ar']) {
        const res = await SELF.fetch(`https://example.com/guides/${slug}?lang=${lang}`)
        expect(res.status).toBe(200)
        expect(res.headers.get('content-disposition')).toBeNull()
        const html = await res.text()
        expect(html).toContain(`<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}">`)
        expect((html.match(/<h2>/g) ?? []).length).toBeGreaterThanOrEqual(6)
      }
  })
})

describe('POST /api/newsletter', () => {
  it('subscribes by e-mail alone and handles a duplicate gracefully', async () => {
    const email = unique()
    expect(await (await post('/api/newsletter', { email })).json()).toEqual({
      alreadySubscribed: false,
      mailed: true,
    })
    expect(await (await post('/api/newsletter', { email: email.toUpperCase() })).json()).toEqual({
      alreadySubscribed: true,
      mailed: false,
    })
    expect(await rows('SELECT name, signup_form FROM subscribers WHERE email = ?', email)).toEqual([
      { name: null, signup_form: 'newsletter' },
    ])
    expect((await post('/api/newsletter', { email: '' })).status).toBe(400)
  })

  const postForm = (fields: Record<string, string>) =>
    SELF.fetch('https://example.com/api/newsletter', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'CF-Connecting-IP': nextIp(),
        Origin: 'https://example.com',
      },
      body: new URLSearchParams(fields).toString(),
    })

  it('works as a plain form post without JavaScript: kept, marked, nothing e-mailed', async () => {
    const email = unique()
    const res = await postForm({ email, website: '' })
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain(en.notices.newsletter_unchecked_title)
    expect(html).toContain(en.notices.newsletter_unchecked_text)
    expect(await rows('SELECT unchecked FROM subscribers WHERE email = ?', email)).toEqual([
      { unchecked: 1 },
    ])
    expect(await outboxRows(email)).toEqual([])
  })

  it('answers a form post carrying the widget token as before, and e-mails it', async () => {
    const email = unique()
    const res = await postForm({ email, website: '', [TOKEN_FIELD]: DUMMY_TOKEN })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain(en.notices.newsletter_title)
    expect(await rows('SELECT unchecked FROM subscribers WHERE email = ?', email)).toEqual([
      { unchecked: 0 },
    ])
    expect((await outboxRows(email)).map((r) => r.kind)).toEqual(['subscribe_confirm'])
  })
})

describe('POST /api/contact', () => {
  const message = (over: Record<string, unknown> = {}) => ({
    name: 'Lin',
    email: unique(),
    company: 'Lin Ltd',
    service: 'amazon',
    budget: '1k_5k',
    message: 'We sell tea on Amazon and want more reviews.',
    ...over,
  })

  it('stores a message with its details', async () => {
    const body = message()
    const res = await post('/api/contact', body, { 'Accept-Language': 'pt-BR' })
    expect(res.status).toBe(200)
    expect(
      await rows(
        'SELECT name, company, service, budget, message, language FROM contact_messages WHERE email = ?',
        body.email,
      ),
    ).toEqual([
      {
        name: 'Lin',
        company: 'Lin Ltd',
        service: 'amazon',
        budget: '1k_5k',
        message: body.message,
        language: 'pt',
      },
    ])
  })

  it('accepts the optional fields left empty', async () => {
    const body = message({ company: '', budget: '', service: 'other' })
    expect((await post('/api/contact', body)).status).toBe(200)
    expect(
      await rows('SELECT company, budget FROM contact_messages WHERE email = ?', body.email),
    ).toEqual([{ company: null, budget: null }])
  })

  it.each([
    ['an unknown service', { service: 'crypto-pumping' }],
    ['an unknown budget', { budget: 'a-million' }],
    ['an empty message', { message: '   ' }],
    ['a message over 5000 characters', { message: 'x'.repeat(5001) }],
  ])('refuses %s', async (_, over) => {
    const body = message(over)
    expect((await post('/api/contact', body)).status).toBe(400)
    expect(await rows('SELECT * FROM contact_messages WHERE email = ?', body.email)).toEqual([])
  })
})

describe('e-mails the notices promise', () => {
  it(
    'sends a new subscriber the starter guide with the confirmation link, once',
    { timeout: 60_000 },
    async () => {
      const email = unique()
      await post('/api/email-signup', { name: 'Ada', email, source: 'website' })
      await post('/api/email-signup', { name: 'Ada', email, source: 'website' })
      expect(await outboxRows(email)).toHaveLength(1)
      const mail = await lastMail(email)
      expect(mail.subject).toBe(en.mail.optin_subject)
      expect(mail.body_text).toContain('Hello Ada,')
      expect(mail.body_text).toContain('https://example.com/subscribe/confirm?token=')
      expect(mail.body_text).toContain(
        'https://example.com/guides/invisible-business-mistakes?lang=en',
      )
    },
  )

  it('sends the requested guide, in the visitor language', async () => {
    const email = unique()
    await post(
      '/api/guide-requests',
      { name: 'Hans', email, guide: 'social-media-growth-kit' },
      { 'Accept-Language': 'de' },
    )
    const mail = await lastMail(email)
    expect(mail.subject).toContain('Social-Media')
    expect(mail.body_text).toContain('https://example.com/guides/social-media-growth-kit?lang=de')
  })
})
