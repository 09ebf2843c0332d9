import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import arabic from '../../../locales/ar.json'
import en from '../../../locales/en.json'
import es from '../../../locales/es.json'
import { describeSlot } from '../../../worker/booking/invitation'
import { SITE, unique } from '../auth/helpers'
import { withToken } from '../challenge'
import { get, person, post } from './helpers'
import { outboxRows, parsedMailsTo } from '../inbox'
import { delivered, settled } from '../mail/helpers'
import { randomIp } from '../random-ip'

// The desk's bookings: staff cancel or move a consultation; the visitor is told once, the slot
// is freed or taken by one statement, and no slot ever holds two bookings.

/** What the desk says after a cancel or a move (?done=). */
const done = (res: Response) => {
  expect(res.status).toBe(303)
  return new URL(res.headers.get('Location')!, SITE).searchParams.get('done')
}

/** The slots a visitor is offered now. */
const freeSlots = async () =>
  (
    (await (await SELF.fetch(`${SITE}/api/bookings/slots`)).json()) as {
      slots: string[]
    }
  ).slots

/**
 * `n` free slots, away from the first ones (which drop out as time passes) and from the ones the
 * other booking tests take.
 */
async function slotsToUse(n: number) {
  const slots = (await freeSlots()).slice(20)
  expect(slots.length).toBeGreaterThanOrEqual(n)
  return slots.slice(0, n)
}

/** A visitor's booking, stored as /api/bookings stores it. */
async function booking(
  slot: string,
  over: { language?: string; name?: string; notes?: string; timeZone?: string } = {},
) {
  const b = {
    slot,
    name: over.name ?? 'Ada Lovelace',
    email: unique('visitor'),
    notes: over.notes ?? null,
    timeZone: over.timeZone ?? 'America/New_York',
    language: over.language ?? 'en',
    token: crypto.randomUUID(),
    // booking ids come back after the newest is deleted: its audit rows are the ones after this
    auditAfter: (await env.DB.prepare('SELECT coalesce(max(id), 0) AS n FROM desk_audit').first<{
      n: number
    }>())!.n,
  }
  const row = await env.DB.prepare(
    `INSERT INTO bookings (slot_start, name, email, notes, time_zone, language, token)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(b.slot, b.name, b.email, b.notes, b.timeZone, b.language, b.token)
    .first<{ id: number }>()
  return { ...b, id: row!.id }
}

const bookingsAt = async (slot: string) =>
  (await env.DB.prepare('SELECT id FROM bookings WHERE slot_start = ?').bind(slot).all()).results
    .length

/** A visitor booking through the site, from an address of their own (the rate limit is per IP). */
const visitorBooks = (slot: string) =>
  SELF.fetch(`${SITE}/api/bookings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': randomIp() },
    // as the booking island posts it, with its challenge token
    body: JSON.stringify(withToken({ slot, name: 'Late Visitor', email: unique('late') })),
  })

/** The audit rows of a booking's id since it was made. */
const auditOf = async (b: { id: number; auditAfter: number }) =>
  (
    await env.DB.prepare(
      'SELECT actor_id, actor_email, action, detail, created_at FROM desk_audit WHERE target = ? AND id > ? ORDER BY id',
    )
      .bind(`booking/${b.id}`, b.auditAfter)
      .all<{
        actor_id: string
        actor_email: string
        action: string
        detail: string
        created_at: string
      }>()
  ).results.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }))

let staff: { email: string; cookie: string }
beforeAll(async () => {
  staff = await person({ staff: true, secondFactor: true })
}, 60_000)

describe('desk bookings: who gets in', { timeout: 60_000 }, () => {
  it('answers a visitor, a non-staff user and staff without aal2 404 on the page, 403 on the forms', async () => {
    const [slot, other] = await slotsToUse(2)
    const b = await booking(slot)
    const visitors = [
      undefined,
      (await person({ staff: false, secondFactor: true })).cookie,
      (await person({ staff: true, secondFactor: false })).cookie,
    ]
    for (const cookie of visitors) {
      const page = await get('/desk/bookings', cookie)
      expect(page.status).toBe(404)
      expect(await page.text()).toContain(en.not_found.title)
      expect((await post(`/desk/bookings/${b.id}/cancel`, {}, cookie)).status).toBe(403)
      expect((await post(`/desk/bookings/${b.id}/move`, { slot: other }, cookie)).status).toBe(403)
    }
    expect(await bookingsAt(slot)).toBe(1)
    expect(await bookingsAt(other)).toBe(0)
    expect(await outboxRows(b.email)).toEqual([])
    expect(await auditOf(b)).toEqual([])
  })

  it('refuses a cross-site post', async () => {
    const [slot] = await slotsToUse(1)
    const b = await booking(slot)
    const res = await SELF.fetch(`${SITE}/desk/bookings/${b.id}/cancel`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'https://evil.example',
        Cookie: staff.cookie,
      },
    })
    expect(res.status).toBe(403)
    expect(await bookingsAt(slot)).toBe(1)
  })
})

describe('desk bookings: the agenda', { timeout: 60_000 }, () => {
  it('shows staff the coming bookings by day in the agency zone, each with its two forms', async () => {
    const [slot] = await slotsToUse(1)
    const b = await booking(slot, { name: 'Grace Hopper', notes: 'Shopify store, 40 products' })
    const past = await booking('2020-01-06T09:00:00.000Z', { name: 'Long Gone' })
    const res = await get('/desk/bookings', staff.cookie)
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const html = await res.text()
    expect(html).toContain('<meta name="robots" content="noindex"/>')
    expect(html).toContain('href="/desk/bookings" aria-current="page"')
    expect(html).toContain('Grace Hopper')
    expect(html).toContain(b.email)
    expect(html).toContain('Shopify store, 40 products')
    // the booker's language by its name in the desk's language, not a code
    expect(html).toMatch(/<dd class="m-0">English<\/dd>/)
    expect(html).not.toContain(past.email)
    // the day and the time as the agency keeps them (Europe/London), not the visitor's
    const day = new Intl.DateTimeFormat('en', { dateStyle: 'full', timeZone: 'Europe/London' })
    const time = new Intl.DateTimeFormat('en', { timeStyle: 'short', timeZone: 'Europe/London' })
    expect(html).toContain(`>${day.format(new Date(slot))}</h2>`)
    expect(html).toContain(`<time dateTime="${slot}">${time.format(new Date(slot))}</time>`)
    expect(html).toContain(`action="/desk/bookings/${b.id}/cancel"`)
    expect(html).toContain(`action="/desk/bookings/${b.id}/move"`)
    // the move form offers the free slots, and starts on the booking's own time, said so
    const [free] = await slotsToUse(1)
    expect(html).toContain(`<option value="${free}">`)
    const own = new RegExp(`<option value="${slot}" selected="">([^<]*)</option>`)
    expect(html.match(own)?.[1]).toMatch(/ \(current\)$/)
    await env.DB.prepare('DELETE FROM bookings WHERE id = ?').bind(past.id).run()
  })

  it('says what the last action did, in the desk language', async () => {
    const texts = Object.values(en.desk_bookings.done)
    for (const [state, text] of Object.entries(en.desk_bookings.done)) {
      const html = await (await get(`/desk/bookings?done=${state}`, staff.cookie)).text()
      expect(html).toMatch(new RegExp(`<p role="status"[^>]*>${text}</p>`))
      expect(texts.filter((other) => html.includes(other))).toEqual([text])
    }
    const ar = await (await get('/desk/bookings?lang=ar&done=moved', staff.cookie)).text()
    expect(ar).toContain('dir="rtl"')
    expect(ar).toContain(`>${arabic.desk_bookings.done.moved}</p>`)
    const html = await (await get('/desk/bookings?done=<b>', staff.cookie)).text()
    expect(texts.filter((text) => html.includes(text))).toEqual([])
  })
})

describe('desk bookings: cancel', { timeout: 60_000 }, () => {
  it('frees the slot for a visitor and e-mails the booker once, in their language, a way to book again', async () => {
    const [slot] = await slotsToUse(1)
    const b = await booking(slot, { language: 'es', timeZone: 'Europe/Madrid' })
    const cancel = () => post(`/desk/bookings/${b.id}/cancel`, {}, staff.cookie)
    // twice at once, then once more: one cancel, one e-mail
    const first = await Promise.all([cancel(), cancel()])
    expect(first.map(done).sort()).toEqual(['cancelled', 'gone'])
    expect(done(await cancel())).toBe('gone')
    expect(await bookingsAt(slot)).toBe(0)

    // the slot is offered again, and a visitor can book it
    expect(await freeSlots()).toContain(slot)
    expect((await visitorBooks(slot)).status).toBe(200)
    expect(await bookingsAt(slot)).toBe(1)

    const when = describeSlot(slot, 'es', 'Europe/Madrid')
    const mail = await delivered(b.email, /.+/)
    expect(mail.subject).toBe(es.mail.cancelled_subject.replace('{{when}}', when))
    expect(mail.text).toContain(es.mail.cancelled_intro.replace('{{length}}', 'de 30 minutos'))
    expect(mail.text).toContain(`${SITE}/book?lang=es`)
    const rows = await settled(b.email)
    expect(rows.map((r) => [r.kind, r.status])).toEqual([['booking_cancelled', 'sent']])
    expect(await parsedMailsTo(b.email)).toHaveLength(1)

    const log = await auditOf(b)
    expect(log.map((r) => [r.action, r.detail])).toEqual([
      ['booking.cancel', { slot }],
      ['booking.cancel', { outcome: 'gone' }],
      ['booking.cancel', { outcome: 'gone' }],
    ])
    for (const r of log) {
      expect(r.actor_email).toBe(staff.email)
      expect(r.actor_id).toMatch(/^[0-9a-f-]{36}$/)
      expect(Date.parse(r.created_at)).toBeGreaterThan(Date.now() - 60_000)
    }
  })

  it('does not cancel a booking that is past or does not exist', async () => {
    const past = await booking('2020-01-13T09:00:00.000Z')
    expect(done(await post(`/desk/bookings/${past.id}/cancel`, {}, staff.cookie))).toBe('gone')
    expect(await bookingsAt(past.slot)).toBe(1)
    expect(done(await post('/desk/bookings/999999999/cancel', {}, staff.cookie))).toBe('gone')
    // no route answers it: refused as an address beyond the desk's routes (a post: 403)
    expect((await post('/desk/bookings/x1/cancel', {}, staff.cookie)).status).toBe(403)
    expect(await outboxRows(past.email)).toEqual([])
    await env.DB.prepare('DELETE FROM bookings WHERE id = ?').bind(past.id).run()
  })
})

describe('desk bookings: move', { timeout: 60_000 }, () => {
  it('moves the call to a free slot, keeps its link, e-mails the new invitation', async () => {
    const [from, to] = await slotsToUse(2)
    const b = await booking(from, { language: 'en', timeZone: 'America/New_York' })
    expect(done(await post(`/desk/bookings/${b.id}/move`, { slot: to }, staff.cookie))).toBe(
      'moved',
    )
    const row = await env.DB.prepare('SELECT slot_start, token FROM bookings WHERE id = ?')
      .bind(b.id)
      .first<{ slot_start: string; token: string }>()
    expect(row).toEqual({ slot_start: to, token: b.token })
    expect(await freeSlots()).toContain(from)
    expect(await freeSlots()).not.toContain(to)

    const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace('.000', '')
    const mail = await delivered(b.email, /.+/)
    expect(mail.subject).toBe(
      en.mail.moved_subject.replace('{{when}}', describeSlot(to, 'en', 'America/New_York')),
    )
    expect(mail.text).toContain(describeSlot(from, 'en', 'America/New_York'))
    expect(mail.text).toContain(`${SITE}/book/${b.token}.ics`)
    expect(mail.attachments.map((a) => a.mimeType)).toEqual(['text/calendar'])
    const ics = String(mail.attachments[0].content)
    expect(ics).toContain(`DTSTART:${stamp(to)}`)
    expect(ics).toContain(`UID:booking-${b.token}@example.com`)
    // the link of the first confirmation serves the new time too
    const served = await (await SELF.fetch(`${SITE}/book/${b.token}.ics`)).text()
    expect(served).toContain(`DTSTART:${stamp(to)}`)

    expect((await auditOf(b)).map((r) => [r.action, r.detail])).toEqual([
      ['booking.move', { from, to }],
    ])
  })

  it('changes nothing when the slot is taken, not offered, or not a time', async () => {
    const [mine, theirs] = await slotsToUse(2)
    const b = await booking(mine)
    await booking(theirs)
    const move = (slot: string) => post(`/desk/bookings/${b.id}/move`, { slot }, staff.cookie)
    expect(done(await move(theirs))).toBe('taken')
    // its own time, as the form starts: nothing to do, and nobody e-mailed
    expect(done(await move(mine))).toBe('unchanged')
    // a night-time slot the site never offers, a past one
    expect(done(await move('2030-01-07T03:00:00.000Z'))).toBe('taken')
    expect(done(await move('2020-01-06T09:00:00.000Z'))).toBe('taken')
    expect((await move('tomorrow')).status).toBe(400)
    expect((await post(`/desk/bookings/${b.id}/move`, {}, staff.cookie)).status).toBe(400)
    expect(await bookingsAt(mine)).toBe(1)
    expect(await bookingsAt(theirs)).toBe(1)
    expect(await outboxRows(b.email)).toEqual([])
    const log = await auditOf(b)
    expect(log.map((r) => [r.action, r.detail.outcome])).toEqual([
      ['booking.move', 'taken'],
      ['booking.move', 'taken'],
      ['booking.move', 'taken'],
    ])
  })
})

describe('desk bookings: one booking per slot under races', { timeout: 120_000 }, () => {
  it('lets exactly one of 20 bookings moved into one free slot at once take it', async () => {
    const slots = await slotsToUse(21)
    const target = slots[20]
    const bookings = await Promise.all(slots.slice(0, 20).map((s) => booking(s)))
    const answers = await Promise.all(
      bookings.map((b) => post(`/desk/bookings/${b.id}/move`, { slot: target }, staff.cookie)),
    )
    const outcomes = answers.map(done)
    expect(outcomes.filter((o) => o === 'moved')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'taken')).toHaveLength(19)
    expect(await bookingsAt(target)).toBe(1)

    const winner = bookings[outcomes.indexOf('moved')]
    const rows = await env.DB.prepare(
      `SELECT id, slot_start FROM bookings WHERE id IN (${bookings.map(() => '?').join()})`,
    )
      .bind(...bookings.map((b) => b.id))
      .all<{ id: number; slot_start: string }>()
    for (const b of bookings)
      expect(rows.results.find((r) => r.id === b.id)?.slot_start).toBe(
        b === winner ? target : b.slot,
      )
    // one e-mail, to the one who moved; one audit row of a move, nineteen of a taken slot
    const mails = await Promise.all(bookings.map((b) => outboxRows(b.email)))
    expect(mails.map((m) => m.length)).toEqual(bookings.map((b) => (b === winner ? 1 : 0)))
    expect(mails.flat()[0].kind).toBe('booking_moved')
    const log = (await Promise.all(bookings.map((b) => auditOf(b)))).flat()
    expect(log).toHaveLength(20)
    expect(log.filter((r) => r.detail.outcome === undefined)).toHaveLength(1)
    expect(log.filter((r) => r.detail.outcome === 'taken')).toHaveLength(19)
  })

  it('never leaves two bookings in a slot when 20 cancels race visitors and moves for it', async () => {
    const slots = await slotsToUse(40)
    const cancelled = await Promise.all(slots.slice(0, 20).map((s) => booking(s)))
    const movers = await Promise.all(slots.slice(20, 40).map((s) => booking(s)))
    // for each slot at once: staff cancel its booking, a visitor books it, staff move another in
    const answers = await Promise.all(
      cancelled.map((b, i) =>
        Promise.all([
          post(`/desk/bookings/${b.id}/cancel`, {}, staff.cookie),
          visitorBooks(b.slot),
          post(`/desk/bookings/${movers[i].id}/move`, { slot: b.slot }, staff.cookie),
        ]),
      ),
    )
    for (const [i, [cancel, visitor, move]] of answers.entries()) {
      const slot = cancelled[i].slot
      expect(done(cancel)).toBe('cancelled')
      expect([200, 409]).toContain(visitor.status)
      const moved = done(move)
      expect(['moved', 'taken']).toContain(moved)
      const winners = Number(visitor.status === 200) + Number(moved === 'moved')
      expect(winners).toBeLessThanOrEqual(1)
      expect(await bookingsAt(slot)).toBe(winners)
      // a mover that lost stays where it was
      expect(await bookingsAt(movers[i].slot)).toBe(moved === 'moved' ? 0 : 1)
    }
    const { n } = (await env.DB.prepare(
      'SELECT COUNT(*) AS n FROM (SELECT slot_start FROM bookings GROUP BY slot_start HAVING COUNT(*) > 1)',
    ).first<{ n: number }>())!
    expect(n).toBe(0)
    // each cancelled booker is told once
    for (const b of cancelled)
      expect((await outboxRows(b.email)).map((r) => r.kind)).toEqual(['booking_cancelled'])
  })
})
