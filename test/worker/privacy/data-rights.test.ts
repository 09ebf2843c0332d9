import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import en from '../../../locales/en.json'
import { emailHash } from '../../../worker/hash'
import { outboxRows } from '../inbox'
import { settled, unique } from '../mail/helpers'
import { linkIn, SITE, siteWith, textOf, tokenOf } from './helpers'

// A visitor's copy of their data and its erasure, proven by a link e-mailed to the address.

// A person here has used every form today (the guide, the newsletter, a booking) before asking
// for the link: more e-mails to an unconfirmed address than a day allows (MAIL_UNCONFIRMED_
// DAILY_LIMIT, 2). These tests are about the data, so their site allows more.
const { postForm, postJson } = siteWith({ MAIL_UNCONFIRMED_DAILY_LIMIT: '10' })

/** A person with a row in every table that can hold their address. */
async function leadsOf(email: string) {
  await postJson('/api/email-signup', { name: 'Ada', email, source: 'website' })
  await postJson('/api/guide-requests', { name: 'Ada', email, guide: 'conversion-masterclass' })
  await postJson('/api/contact', {
    name: 'Ada',
    email,
    service: 'shopify',
    message: `Please call me, ${email}`,
  })
  const slots = (await (await SELF.fetch(`${SITE}/api/bookings/slots`)).json()) as {
    slots: string[]
  }
  const slot = slots.slots[Math.floor(Math.random() * slots.slots.length)]
  const booked = await postJson('/api/bookings', {
    name: 'Ada',
    email,
    slot,
    timeZone: 'Europe/London',
  })
  expect(booked.status).toBe(200)
  await settled(email)
}

/** Asks for a link on the privacy page and follows it to its page. */
async function requestLink(email: string, action: 'export' | 'erase') {
  const res = await postForm('/privacy/request', { email, action })
  expect(res.status).toBe(200)
  const { url } = await linkIn(
    email,
    new RegExp(en.mail[`data_${action}_subject`]),
    `${SITE}/privacy/data?token=`,
  )
  return url
}

/** Every text cell of every table that holds `needle`: where an address is still written. */
async function tablesHolding(needle: string) {
  const tables = (
    await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
    ).all<{ name: string }>()
  ).results.map((t) => t.name)
  const found: string[] = []
  for (const table of tables) {
    const columns = (await env.DB.prepare(`PRAGMA table_info(${table})`).all<{ name: string }>())
      .results
    for (const { name } of columns) {
      const hit = await env.DB.prepare(
        `SELECT COUNT(*) AS n FROM ${table} WHERE CAST(${name} AS TEXT) LIKE ?`,
      )
        .bind(`%${needle}%`)
        .first<{ n: number }>()
      if (hit!.n) found.push(`${table}.${name}`)
    }
  }
  return found
}

describe('a data request', { timeout: 60_000 }, () => {
  it('answers the same for a known and an unknown address, and mails each a link per action once in 10 minutes', async () => {
    const known = unique('known')
    await leadsOf(known)
    const unknown = unique('unknown')
    const a = await postForm('/privacy/request', { email: known, action: 'export' })
    const b = await postForm('/privacy/request', { email: unknown, action: 'export' })
    expect([a.status, b.status]).toEqual([200, 200])
    const textA = textOf(await a.text()).replace(known, 'X')
    const textB = textOf(await b.text()).replace(unknown, 'X')
    expect(textA).toBe(textB)
    expect(textA).toContain(en.privacy_request.sent_title)
    await postForm('/privacy/request', { email: unknown, action: 'export' })
    await postForm('/privacy/request', { email: unknown, action: 'erase' })
    await settled(unknown)
    expect((await outboxRows(unknown)).map((r) => [r.kind, JSON.parse(r.data).action])).toEqual([
      ['data_request', 'export'],
      ['data_request', 'erase'],
    ])
  })

  it('sends a mistyped address back to the form with a clear error', async () => {
    const res = await postForm('/privacy/request', { email: 'not-an-address', action: 'export' })
    expect(res.status).toBe(303)
    const page = await SELF.fetch(new URL(res.headers.get('Location')!, SITE))
    expect(page.status).toBe(200)
    const text = textOf(await page.text())
    expect(text).toContain(en.errors.invalid_email)
    expect(
      (await postForm('/privacy/request', { email: 'a@example.org', action: 'steal' })).status,
    ).toBe(303)
  })

  it("exports every table's rows for the address and nothing of anyone else's", async () => {
    const me = unique('export')
    const other = unique('other')
    await leadsOf(me)
    await leadsOf(other)
    const url = await requestLink(me, 'export')
    const page = await SELF.fetch(url)
    expect(page.status).toBe(200)
    expect(textOf(await page.text())).toContain(en.privacy_request.export_title)

    const res = await postForm('/privacy/data', { token: tokenOf(url) })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="my-data-/)
    const raw = await res.text()
    expect(raw).not.toContain(other.split('@')[0])
    const data = JSON.parse(raw)
    expect(data.email).toBe(me)
    expect(data.subscriptions).toEqual([
      expect.objectContaining({ email: me, status: 'pending', consent_version: '2026-11-01' }),
    ])
    expect(data.guide_requests).toEqual([
      expect.objectContaining({ guide: 'conversion-masterclass' }),
    ])
    expect(data.contact_messages).toEqual([expect.objectContaining({ service: 'shopify' })])
    expect(data.bookings).toEqual([expect.objectContaining({ email: me, name: 'Ada' })])
    expect(data.emails.map((m: { kind: string }) => m.kind).sort()).toEqual(
      ['booking_confirmation', 'data_request', 'guide', 'subscribe_confirm'].sort(),
    )
    expect(data.suppression).toBeNull()
  }, 60_000)

  it('erases every row with the address, keeps its hash suppressed, and leaves others alone', async () => {
    const me = unique('erase')
    const other = unique('keep')
    await leadsOf(me)
    await leadsOf(other)
    expect((await tablesHolding(me)).length).toBeGreaterThanOrEqual(5)

    const url = await requestLink(me, 'erase')
    const page = await SELF.fetch(url)
    const html = await page.text()
    expect(html).toContain(en.privacy_request.erase_button)
    // opening the link erased nothing
    expect(await tablesHolding(me)).not.toEqual([])

    const res = await postForm('/privacy/data', { token: tokenOf(url) })
    expect(res.status).toBe(200)
    expect(textOf(await res.text())).toContain(en.privacy_request.erased_title)
    expect(await tablesHolding(me)).toEqual([])
    const suppression = await env.DB.prepare(
      'SELECT reason FROM mail_suppressions WHERE email_hash = ?',
    )
      .bind(await emailHash(me))
      .first()
    expect(suppression).toEqual({ reason: 'erasure' })
    expect((await tablesHolding(other)).sort()).toEqual(
      [
        'bookings.email',
        'contact_messages.email',
        'contact_messages.message',
        'guide_requests.email',
        'mail_outbox.data',
        'mail_outbox.to_address',
        'subscribers.email',
        // the desk's search indexes (external content: they read the rows above)
        'contact_messages_search.email',
        'guide_requests_search.email',
        'subscribers_search.email',
      ].sort(),
    )

    // the link again: nothing left to erase, the same clear page
    const again = await postForm('/privacy/data', { token: tokenOf(url) })
    expect(again.status).toBe(200)
  }, 60_000)

  it('refuses an altered data link with a clear page', async () => {
    const res = await postForm('/privacy/data', { token: 'eyJhbGciOiJkaXIifQ..x.y.z' })
    expect(res.status).toBe(400)
    expect(textOf(await res.text())).toContain(en.subscription.invalid_title)
    const page = await SELF.fetch(`${SITE}/privacy/data?token=abc`)
    expect(page.status).toBe(400)
  })
})
