import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import app from '../../worker/index'
import { DUMMY_TOKEN, TOKEN_FIELD } from './challenge'
import { freshMinute } from './clock'
import { outboxRows } from './inbox'
import { linkIn, postJson, subscriber, textOf, tokenOf } from './privacy/helpers'

/**
 * Issue 55, findings 5 and 8: a form posted without the challenge's token (the page without
 * JavaScript, or a bot that never runs it) holds nothing scarce and changes nothing that exists.
 * A booking without a token takes no slot and e-mails nobody; its page says so and gives the
 * form back as typed. A newsletter or guide post without one only ever adds an address, and
 * answers the same whatever the address. Every per-IP limit counts an IPv6 client by its /64.
 */

const SITE = 'https://example.com'

let n = 0
/** A fresh IPv4 client per post, unless the test names one. */
const nextIp = () => `192.0.2.${(++n % 250) + 1}`
/** A /64 of its own for a test: `2001:db8:x:y`. */
const randomNet = () =>
  `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(
    Math.random() * 0xffff,
  ).toString(16)}`
const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.org`

/** A form as the browser posts it from the site's page without JavaScript: no token. */
async function postForm(
  path: string,
  fields: Record<string, string>,
  { ip = nextIp(), lang }: { ip?: string; lang?: string } = {},
) {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(SITE + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: SITE,
        'Sec-Fetch-Site': 'same-origin',
        'CF-Connecting-IP': ip,
        ...(lang ? { 'Accept-Language': lang } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    }),
    env,
    ctx,
  )
  await waitOnExecutionContext(ctx)
  return res
}

/** The slots the booking page offers now. */
async function offered() {
  const res = await app.fetch(
    new Request(`${SITE}/api/bookings/slots`),
    env,
    createExecutionContext(),
  )
  return ((await res.json()) as { slots: string[] }).slots
}

/** A free slot past the first few (the first may pass the minimum notice meanwhile). */
const someSlot = async () => {
  const slots = await offered()
  return slots[3 + Math.floor(Math.random() * Math.max(1, slots.length - 4))]
}

const count = async (sql: string, ...params: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>())!.n

/** The agency's notices of a booking by this address. */
const agencyNotices = (email: string) =>
  count(
    `SELECT count(*) AS n FROM mail_outbox WHERE kind = 'agency_booking' AND data LIKE ?`,
    `%${email}%`,
  )

/** The value of the form field `name` on a page (an input's value, a textarea's text). */
function fieldOf(html: string, name: string) {
  const input = html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0]
  if (input) return input.match(/value="([^"]*)"/)?.[1]
  return html.match(new RegExp(`<textarea[^>]*name="${name}"[^>]*>([^<]*)</textarea>`))?.[1]
}

/** The chosen option of the select `name` on a page. */
const chosenOf = (html: string, name: string) =>
  html
    .match(new RegExp(`<select[^>]*name="${name}"[\\s\\S]*?</select>`))?.[0]
    .match(/<option[^>]*value="([^"]*)"[^>]*selected=""/)?.[1]

const decode = (s: string | undefined) =>
  s
    ?.replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')

describe('a booking without the challenge (finding 5)', () => {
  for (const [lang, t] of [
    ['en', en],
    ['ar', ar],
  ] as const)
    it(`takes no slot, e-mails nobody, and gives the form back as typed (${lang})`, async () => {
      const slot = await someSlot()
      const email = unique('nojs-book')
      const typed = {
        slot,
        name: 'Ada Lovelace',
        email,
        notes: 'Shopify store, "40" products & more',
        timeZone: 'Europe/London',
        website: '',
      }
      const res = await postForm('/api/bookings', typed, { lang })
      const html = await res.text()
      expect(res.status).toBe(403)
      const text = textOf(html)
      expect(text).toContain(t.booking.not_booked_title)
      expect(text).toContain(t.booking.not_booked_text)

      // nothing booked, the time still offered, nobody e-mailed
      expect(await count('SELECT count(*) AS n FROM bookings WHERE email = ?', email)).toBe(0)
      expect(await offered()).toContain(slot)
      expect(await agencyNotices(email)).toBe(0)
      expect(await outboxRows(email)).toEqual([])

      // the booking form again, posting where it did, with what was typed, and its challenge
      // allowed to run once JavaScript does
      const form = html.match(/<form[^>]*action="\/api\/bookings"[^>]*>/)?.[0]
      expect(form).toContain('method="post"')
      expect(form).toContain('data-challenge="booking"')
      expect(res.headers.get('Content-Security-Policy')).toContain(
        new URL(env.TURNSTILE_SCRIPT_URL!).origin,
      )
      expect(chosenOf(html, 'slot')).toBe(slot)
      expect(decode(fieldOf(html, 'name'))).toBe(typed.name)
      expect(decode(fieldOf(html, 'email'))).toBe(email)
      expect(decode(fieldOf(html, 'notes'))).toBe(typed.notes)
      expect(fieldOf(html, 'timeZone')).toBe('Europe/London')
    })

  it('books the same time once the page’s form is sent again with the token', async () => {
    const slot = await someSlot()
    const email = unique('again-book')
    const first = await postForm('/api/bookings', {
      slot,
      // not the name the delivery test looks for in the agency's inbox
      name: 'Ada Lovelace',
      email,
      notes: '',
      timeZone: 'Europe/Berlin',
    })
    const html = await first.text()
    // what the page's form sends, as its widget adds the token when JavaScript runs
    const again = {
      slot: chosenOf(html, 'slot')!,
      name: decode(fieldOf(html, 'name'))!,
      email: decode(fieldOf(html, 'email'))!,
      notes: decode(fieldOf(html, 'notes')) ?? '',
      timeZone: fieldOf(html, 'timeZone')!,
      [TOKEN_FIELD]: DUMMY_TOKEN,
    }
    const booked = await postForm('/api/bookings', again)
    expect(booked.status).toBe(200)
    const page = await booked.text()
    expect(textOf(page)).toContain(en.booking.confirmed_title)
    // its calendar invitation is a download: the browser saves it and stays on the page (a
    // plain link showed the page's progress bar for a next page that never came)
    expect(page.match(/<a [^>]*href="\/book\/[0-9a-f-]+\.ics"[^>]*>/)?.[0]).toMatch(/ download=""/)
    expect(
      await env.DB.prepare('SELECT slot_start, time_zone, unchecked FROM bookings WHERE email = ?')
        .bind(email)
        .first(),
    ).toEqual({ slot_start: slot, time_zone: 'Europe/Berlin', unchecked: 0 })
    expect(await agencyNotices(email)).toBe(1)
  })

  it(
    'limits 300 posts from addresses rotating within one IPv6 /64, and none takes a slot',
    { timeout: 120_000 },
    async () => {
      await freshMinute()
      const net = randomNet()
      const before = await offered()
      const run = crypto.randomUUID().slice(0, 8)
      const statuses: number[] = []
      let limitPage = ''
      for (let i = 0; i < 300; i++) {
        // a new address of the same /64 each time, as a bot with a /64 of its own rotates
        const ip = `${net}:${(i + 1).toString(16)}:${(i * 7).toString(16)}:${run.slice(0, 4)}:1`
        const res = await postForm(
          '/api/bookings',
          {
            slot: before[i % before.length],
            name: 'Bot',
            email: `flood-${run}-${i}@example.org`,
          },
          { ip },
        )
        statuses.push(res.status)
        const body = await res.text()
        if (res.status === 429) limitPage ||= body
      }
      const limited = statuses.filter((s) => s === 429).length
      console.log(`300 posts from one /64: ${limited} limited (429), the rest refused unbooked`)
      // 10 a minute per client (miniflare's limit): two windows at the most
      expect(limited).toBeGreaterThanOrEqual(280)
      expect(statuses.filter((s) => s !== 429 && s !== 403)).toEqual([])
      expect(textOf(limitPage)).toContain(en.errors.rate_limited)
      expect(
        await count('SELECT count(*) AS n FROM bookings WHERE email LIKE ?', `flood-${run}-%`),
      ).toBe(0)
      const after = await offered()
      expect(before.filter((s) => s > new Date().toISOString() && !after.includes(s))).toEqual([])
      expect(
        await count(`SELECT count(*) AS n FROM mail_outbox WHERE data LIKE ?`, `%flood-${run}-%`),
      ).toBe(0)
      // another network is not held back
      const other = await postForm(
        '/api/bookings',
        { slot: before[0], name: 'Someone', email: unique('other-net') },
        { ip: `${randomNet()}::1` },
      )
      expect(other.status).toBe(403)
    },
  )

  it('counts the conversion events by /64 too', { timeout: 60_000 }, async () => {
    await freshMinute()
    const net = randomNet()
    const statuses: number[] = []
    // 60 a minute (EVENT_LIMITER): past two windows' worth from one network
    for (let i = 0; i < 130; i++) {
      const ctx = createExecutionContext()
      const res = await app.fetch(
        new Request(`${SITE}/api/events`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Origin: SITE,
            'CF-Connecting-IP': `${net}:${i.toString(16)}::${(i + 1).toString(16)}`,
          },
          body: JSON.stringify({ name: 'booking_opened', path: '/' }),
        }),
        env,
        ctx,
      )
      await waitOnExecutionContext(ctx)
      statuses.push(res.status)
    }
    expect(statuses).toContain(429)
  })
})

describe('a newsletter or guide post without the challenge only adds (finding 8)', () => {
  /** A sign-up that passed the challenge, its link e-mailed; made to look an hour old. */
  async function pendingSignup() {
    const email = unique('pending')
    const res = await postJson('/api/email-signup', { name: 'Ada', email, source: 'website' })
    expect(await res.json()).toEqual({ alreadySubscribed: false, mailed: true })
    const { url } = await linkIn(email, /./, `${SITE}/subscribe/confirm?token=`)
    // older than the ten minutes after which a repeated sign-up gets a fresh link
    await env.DB.prepare('UPDATE subscribers SET consented_at = ? WHERE email = ?')
      .bind(new Date(Date.now() - 3600_000).toISOString(), email)
      .run()
    return { email, url }
  }

  async function listed(email: string, status: 'confirmed' | 'unsubscribed') {
    const long = new Date(Date.now() - 30 * 86400_000).toISOString()
    await env.DB.prepare(
      `INSERT INTO subscribers (email, name, source, signup_form, language, consent_version,
         status, consented_at, confirmed_at, unsubscribed_at)
       VALUES (?1, 'Ada', 'website', 'newsletter', 'en', '2026-11-01', ?2, ?3, ?3, ?4)`,
    )
      .bind(email, status, long, status === 'unsubscribed' ? long : null)
      .run()
    return email
  }

  const nojsNewsletter = (email: string) => postForm('/api/newsletter', { email, website: '' })
  const nojsGuide = (email: string) =>
    postForm('/api/guide-requests', {
      name: 'Ada',
      email,
      guide: 'social-media-growth-kit',
      website: '',
    })

  it('leaves a pending sign-up as it was: its e-mailed link still confirms it', async () => {
    const { email, url } = await pendingSignup()
    const before = await subscriber(email)
    expect((await nojsNewsletter(email)).status).toBe(200)
    expect((await nojsGuide(email)).status).toBe(200)
    expect(await subscriber(email)).toEqual(before)
    const confirmed = await postForm('/subscribe/confirm', { token: tokenOf(url) })
    expect(textOf(await confirmed.text())).toContain(en.subscription.confirmed_title)
    expect((await subscriber(email))!.status).toBe('confirmed')
  })

  it('leaves an unsubscribed address unsubscribed', async () => {
    const email = await listed(unique('gone'), 'unsubscribed')
    const before = await subscriber(email)
    expect((await nojsNewsletter(email)).status).toBe(200)
    expect((await nojsGuide(email)).status).toBe(200)
    expect(await subscriber(email)).toEqual(before)
    expect(before).toMatchObject({ status: 'unsubscribed' })
    expect(await outboxRows(email)).toEqual([])
  })

  it('answers the same for an unknown address and a pending, confirmed or unsubscribed one', async () => {
    const addresses = {
      unknown: unique('unknown'),
      pending: (await pendingSignup()).email,
      confirmed: await listed(unique('confirmed'), 'confirmed'),
      unsubscribed: await listed(unique('unsubscribed'), 'unsubscribed'),
    }
    for (const [form, post] of [
      ['newsletter', nojsNewsletter],
      ['guide', nojsGuide],
    ] as const) {
      const answers: Record<string, string> = {}
      for (const [kind, email] of Object.entries(addresses)) {
        const res = await post(email)
        answers[kind] = `${res.status} ${textOf(await res.text())}`
      }
      expect(answers.pending, form).toBe(answers.unknown)
      expect(answers.confirmed, form).toBe(answers.unknown)
      expect(answers.unsubscribed, form).toBe(answers.unknown)
    }
    // the unknown address was added, marked, and e-mailed nothing
    expect(await subscriber(addresses.unknown)).toMatchObject({ status: 'pending' })
    expect(await outboxRows(addresses.unknown)).toEqual([])
  })

  it('lets the same address subscribe with JavaScript right after, as the page advises', async () => {
    const email = unique('then-js')
    expect((await nojsNewsletter(email)).status).toBe(200)
    const res = await postJson('/api/newsletter', { email })
    expect(await res.json()).toEqual({ alreadySubscribed: false, mailed: true })
    const { url } = await linkIn(email, /./, `${SITE}/subscribe/confirm?token=`)
    const confirmed = await postForm('/subscribe/confirm', { token: tokenOf(url) })
    expect(textOf(await confirmed.text())).toContain(en.subscription.confirmed_title)
    expect(await subscriber(email)).toMatchObject({ status: 'confirmed' })
  })
})
