import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import en from '../../../locales/en.json'
import type { Bindings } from '../../../worker/bindings'
import { syncCalendar } from '../../../worker/calendar/sync'
import { sealLink } from '../../../worker/consent/links'
import { findLead } from '../../../worker/db/desk'
import { makeEndpoint, pathFor } from '../webhooks/helpers'
import { emailHash } from '../../../worker/hash'
import { eraseData } from '../../../worker/services/data-rights'
import {
  bookSlot,
  calendarEvents,
  postForm as calendarPost,
  newCalendar,
  siteFetch,
  slotsOf,
} from '../calendar'
import { get, person, post } from '../desk/helpers'
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
    // an endpoint that asks for personal fields: the events hold the address too
    const hook = await makeEndpoint({
      path: pathFor('erasure'),
      events: ['lead.created', 'booking.created'],
      personal: true,
    })
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
        'webhook_events.data',
        // the desk's search indexes (external content: they read the rows above)
        'contact_messages_search.email',
        'guide_requests_search.email',
        'subscribers_search.email',
      ].sort(),
    )

    // the link again: nothing left to erase, the same clear page
    const again = await postForm('/privacy/data', { token: tokenOf(url) })
    expect(again.status).toBe(200)
    await env.DB.prepare('DELETE FROM webhook_endpoints WHERE id = ?').bind(hook.id).run()
  }, 60_000)

  it('refuses an altered data link with a clear page', async () => {
    const res = await postForm('/privacy/data', { token: 'eyJhbGciOiJkaXIifQ..x.y.z' })
    expect(res.status).toBe(400)
    expect(textOf(await res.text())).toContain(en.subscription.invalid_title)
    const page = await SELF.fetch(`${SITE}/privacy/data?token=abc`)
    expect(page.status).toBe(400)
  })
})

/** The ids of an address's leads, by the desk's kinds, and of its booking. */
async function leadIds(email: string) {
  const id = async (table: string) =>
    (await env.DB.prepare(`SELECT max(id) AS id FROM ${table} WHERE email = ?`)
      .bind(email)
      .first<{ id: number | null }>())!.id
  return {
    subscriber: await id('subscribers'),
    guide: await id('guide_requests'),
    contact: await id('contact_messages'),
    booking: await id('bookings'),
  }
}

const LEAD_KINDS = ['subscriber', 'guide', 'contact'] as const

/** A staff member marks each of the address's leads handled, with a note naming them. */
async function markLeads(site: Bindings, cookie: string, email: string) {
  const ids = await leadIds(email)
  for (const kind of LEAD_KINDS) {
    const marked = await calendarPost(
      site,
      `/desk/leads/${kind}/${ids[kind]}`,
      { handled: '1', note: `Called ${email} back` },
      cookie,
    )
    expect(marked.status, kind).toBe(303)
  }
  return ids
}

/** The erasure link's button, pressed (the link as the e-mail carries it). */
async function erase(site: Bindings, email: string) {
  const token = await sealLink(site, { p: 'data', a: 'erase', e: email })
  const res = await calendarPost(site, '/privacy/data', { token })
  expect(res.status).toBe(200)
  expect(textOf(await res.text())).toContain(en.privacy_request.erased_title)
}

const marksOn = (kind: string, id: number | null) =>
  env.DB.prepare('SELECT note FROM lead_marks WHERE kind = ? AND lead_id = ?')
    .bind(kind, id)
    .all()
    .then((r) => r.results)

describe('an erasure leaves no trace', { timeout: 90_000 }, () => {
  it('no mark or note on the leads, the visitor’s own audit rows under a hash, and the booking’s event gone from the calendar', async () => {
    const calendar = await newCalendar()
    const site = calendar.site
    const me = unique('traces')
    const other = unique('stays')
    await leadsOf(me)
    await leadsOf(other)
    const staff = await person({ staff: true, secondFactor: true })
    const mine = await markLeads(site, staff.cookie, me)
    const theirs = await markLeads(site, staff.cookie, other)
    // the agency looked the person up and exported what it found
    const csv = await siteFetch(site, `/desk/leads.csv?q=${encodeURIComponent(me)}`, {
      headers: { Cookie: staff.cookie },
    })
    expect(csv.status).toBe(200)

    // two calls in the agency's calendar: the visitor moves one and cancels the other
    const free = async () => {
      const slots = await slotsOf(site)
      return slots[Math.floor(Math.random() * slots.length)]
    }
    const booked = async () => {
      const res = await bookSlot(site, await free(), 'Ada', me)
      expect(res.status).toBe(200)
      const { booking } = (await res.json()) as { booking: { manageUrl: string } }
      return new URL(booking.manageUrl, SITE).searchParams.get('token')!
    }
    const kept = await booked()
    const moved = await calendarPost(site, '/api/bookings/manage/move', {
      token: kept,
      slot: await free(),
    })
    expect(moved.status).toBe(303)
    const cancelled = await calendarPost(site, '/api/bookings/manage/cancel', {
      token: await booked(),
    })
    expect(cancelled.status).toBe(303)
    const { uid } = (await env.DB.prepare(
      'SELECT uid FROM bookings WHERE email = ? AND calendar_state IS NOT NULL',
    )
      .bind(me)
      .first<{ uid: string }>())!
    expect((await calendarEvents(calendar)).map((e) => e.uid)).toEqual([uid])
    const hash = await emailHash(me)
    const ownAudit = () =>
      env.DB.prepare(
        "SELECT action, actor_email FROM desk_audit WHERE actor_id = 'visitor' AND actor_email IN (?, ?) ORDER BY id",
      )
        .bind(me, `sha256:${hash}`)
        .all<{ action: string; actor_email: string }>()
        .then((r) => r.results)
    expect((await ownAudit()).map((r) => r.action)).toEqual(['booking.move', 'booking.cancel'])

    await erase(site, me)

    expect(await tablesHolding(me)).toEqual([])
    for (const kind of LEAD_KINDS) {
      expect(await marksOn(kind, mine[kind]), kind).toEqual([])
      // another person's mark and note stay
      expect(await marksOn(kind, theirs[kind]), kind).toEqual([{ note: `Called ${other} back` }])
    }
    // what the visitor did stays in the log, under the address's hash
    expect(await ownAudit()).toEqual([
      { action: 'booking.move', actor_email: `sha256:${hash}` },
      { action: 'booking.cancel', actor_email: `sha256:${hash}` },
    ])
    // the call is gone from the agency's calendar, and nothing is owed to it
    expect(await calendarEvents(calendar)).toEqual([])
    expect(
      await env.DB.prepare('SELECT count(*) AS n FROM calendar_deletions WHERE uid = ?')
        .bind(uid)
        .first(),
    ).toEqual({ n: 0 })
  })

  it('with the calendar out of reach, the event is deleted once it answers again', async () => {
    const calendar = await newCalendar()
    const me = unique('away')
    const slots = await slotsOf(calendar.site)
    const res = await bookSlot(
      calendar.site,
      slots[Math.floor(Math.random() * slots.length)],
      'Ada',
      me,
    )
    expect(res.status).toBe(200)
    expect(await calendarEvents(calendar)).toHaveLength(1)
    const jobs: unknown[] = []
    const down: Bindings = {
      ...calendar.site,
      // the same calendar behind an address that refuses every connection
      CALDAV_URL: 'http://127.0.0.1:9/agency/calendar/',
      CALENDAR_QUEUE: { send: async (job: unknown) => void jobs.push(job) } as unknown as Queue,
    }
    await erase(down, me)
    expect(await tablesHolding(me)).toEqual([])
    // still in the calendar, owed, and the calendar queue asked to try again
    expect(await calendarEvents(calendar)).toHaveLength(1)
    expect(jobs).toEqual([{ sync: true }])
    // the queue's (or the five-minute cron's) next run, the calendar back
    expect(await syncCalendar(calendar.site)).toBe(0)
    expect(await calendarEvents(calendar)).toEqual([])
  })

  it('a lead that comes after the newest was erased has an id of its own, and none of its mark or note', async () => {
    const staff = await person({ staff: true, secondFactor: true })
    const me = unique('newest')
    await leadsOf(me)
    const erased = await markLeads(env, staff.cookie, me)
    await erase(env, me)
    const next = unique('next')
    await leadsOf(next)
    const fresh = await leadIds(next)
    for (const kind of LEAD_KINDS) {
      expect(fresh[kind], kind).toBeGreaterThan(erased[kind]!)
      expect(await findLead(env.DB, kind, fresh[kind]!), kind).toMatchObject({
        email: next,
        handled_at: null,
        note: null,
      })
      const page = await get(`/desk/leads/${kind}/${fresh[kind]}`, staff.cookie)
      expect(page.status).toBe(200)
      expect(await page.text()).not.toContain(`Called ${me} back`)
      // the erased lead's page is gone for good
      expect((await get(`/desk/leads/${kind}/${erased[kind]}`, staff.cookie)).status).toBe(404)
    }
    // a desk page left open on the erased booking cancels nothing of the new one
    expect(fresh.booking).toBeGreaterThan(erased.booking!)
    const stale = await post(`/desk/bookings/${erased.booking}/cancel`, {}, staff.cookie)
    expect(stale.headers.get('Location')).toBe('/desk/bookings?done=gone')
    expect((await leadIds(next)).booking).toBe(fresh.booking)
  })
})

describe('an erasure beside unreadable rows', () => {
  it('goes through, and takes the address out of a row whose JSON is cut short', async () => {
    const email = unique('unreadable')
    const other = unique('unreadable-other')
    const id = (name: string) => `msg_${name}_${crypto.randomUUID()}`
    const [theirs, others] = [id('theirs'), id('others')]
    // events whose data was cut short mid-write: one naming the person, one someone else
    await env.DB.batch([
      env.DB.prepare('INSERT INTO webhook_events (id, type, data) VALUES (?, ?, ?)').bind(
        theirs,
        'lead.created',
        `{"personal":{"email":"${email}"`,
      ),
      env.DB.prepare('INSERT INTO webhook_events (id, type, data) VALUES (?, ?, ?)').bind(
        others,
        'lead.created',
        `{"personal":{"email":"${other}"`,
      ),
    ])
    await eraseData(env, email, { waitUntil: () => {} })
    const data = async (event: string) =>
      (await env.DB.prepare('SELECT data FROM webhook_events WHERE id = ?')
        .bind(event)
        .first<{ data: string }>())!.data
    expect(await data(theirs)).toBe('{}')
    expect(await data(others)).toContain(other)
    await env.DB.prepare('DELETE FROM webhook_events WHERE id IN (?, ?)').bind(theirs, others).run()
  })
})
