import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { withToken } from './challenge'
import { lastMail } from './inbox'
import en from '../../locales/en.json'
import { describeSlot } from '../../worker/booking/invitation'
import { invitation } from '../../worker/booking/ics'
import { generateSlots, type Availability } from '../../worker/booking/slots'

const nineToFive = { start: 9 * 60, end: 17 * 60 }
const LONDON: Availability = {
  timeZone: 'Europe/London',
  hours: { 1: nineToFive, 2: nineToFive, 3: nineToFive, 4: nineToFive, 5: nineToFive },
  daysOff: [],
  minNoticeMinutes: 0,
  daysAhead: 7,
  bufferMinutes: 0,
  lengthMinutes: 30,
  dailyMax: 0,
}
const iso = (dates: Date[]) => dates.map((d) => d.toISOString())

describe('slot generation', () => {
  it('offers 30-minute slots in working hours on weekdays, in the agency time zone', () => {
    const slots = iso(generateSlots(LONDON, new Date('2026-11-23T00:00:00Z'))) // a Monday, GMT
    expect(slots[0]).toBe('2026-11-23T09:00:00.000Z')
    expect(slots.filter((s) => s.startsWith('2026-11-23'))).toHaveLength(16)
    expect(slots.filter((s) => s.startsWith('2026-11-23')).at(-1)).toBe('2026-11-23T16:30:00.000Z')
    // no Saturday or Sunday
    expect(slots.some((s) => s.startsWith('2026-11-28') || s.startsWith('2026-11-29'))).toBe(false)
    expect(slots.some((s) => s.startsWith('2026-11-30'))).toBe(true)
  })

  it('keeps 09:00 local across the daylight-saving change (09:00 GMT, then 08:00 UTC in BST)', () => {
    const slots = iso(generateSlots(LONDON, new Date('2026-03-26T00:00:00Z')))
    expect(slots).toContain('2026-03-27T09:00:00.000Z') // Friday, still GMT
    expect(slots).toContain('2026-03-30T08:00:00.000Z') // Monday after the clocks went forward
    expect(slots).not.toContain('2026-03-30T09:00:00.000Z'.replace('09:00', '07:30'))
    expect(slots.filter((s) => s.startsWith('2026-03-30'))).toHaveLength(16)
  })

  it('skips local times that do not exist on the night the clocks go forward', () => {
    const night = { ...LONDON, hours: { 7: { start: 0, end: 3 * 60 } } }
    const slots = iso(generateSlots(night, new Date('2026-03-28T12:00:00Z'))).filter(
      (s) => s < '2026-03-30',
    )
    // 00:00, 00:30 GMT; 01:00-01:59 is skipped; 02:00, 02:30 BST
    expect(slots).toEqual([
      '2026-03-29T00:00:00.000Z',
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T01:30:00.000Z',
    ])
  })

  it('respects the minimum notice and never offers the past', () => {
    const now = new Date('2026-11-23T08:00:00Z') // Monday 08:00 London
    const slots = iso(generateSlots({ ...LONDON, minNoticeMinutes: 12 * 60 }, now))
    expect(slots[0]).toBe('2026-11-24T09:00:00.000Z')
    const soon = iso(generateSlots(LONDON, new Date('2026-11-23T10:10:00Z')))
    expect(soon[0]).toBe('2026-11-23T10:30:00.000Z')
  })

  it('works for agencies far from UTC and shows times in the visitor zone and language', () => {
    const lagos = iso(
      generateSlots({ ...LONDON, timeZone: 'Africa/Lagos' }, new Date('2026-11-23T00:00:00Z')),
    )
    expect(lagos[0]).toBe('2026-11-23T08:00:00.000Z')
    expect(describeSlot('2026-11-23T09:00:00.000Z', 'en', 'America/New_York')).toBe(
      'Monday, November 23, 2026 at 4:00 AM',
    )
    expect(describeSlot('2026-11-23T09:00:00.000Z', 'de', 'Europe/Berlin')).toBe(
      'Montag, 23. November 2026 um 10:00',
    )
  })
})

describe('calendar invitation', () => {
  it('is a valid iCalendar event of 30 minutes with escaped, folded text', () => {
    const ics = invitation(
      {
        uid: 'booking-7@example.com',
        sequence: 0,
        start: new Date('2026-11-24T09:30:00Z'),
        end: new Date('2026-11-24T10:00:00Z'),
        summary: 'Free consultation with Northstar Growth',
        description: 'Notes: Amazon, Shopify; and more\nSecond line ' + 'x'.repeat(120),
        organizerEmail: 'hello@example.com',
        organizerName: 'Northstar Growth',
        attendeeEmail: 'ana@example.org',
        attendeeName: 'Ana "A" Lopez',
        url: 'https://example.com/contact',
      },
      new Date('2026-11-21T12:00:00Z'),
    )
    expect(ics.endsWith('\r\n')).toBe(true)
    const lines = ics.split('\r\n').slice(0, -1)
    expect(lines[0]).toBe('BEGIN:VCALENDAR')
    expect(lines.at(-1)).toBe('END:VCALENDAR')
    for (const line of lines) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75)
    // unfold, then read the properties
    const props = Object.fromEntries(
      ics
        .replace(/\r\n /g, '')
        .split('\r\n')
        .filter(Boolean)
        .map((l) => [l.slice(0, l.search(/[:;]/)), l]),
    )
    expect(props.DTSTART).toBe('DTSTART:20261124T093000Z')
    expect(props.DTEND).toBe('DTEND:20261124T100000Z')
    expect(props.DTSTAMP).toBe('DTSTAMP:20261121T120000Z')
    expect(props.UID).toBe('UID:booking-7@example.com')
    expect(props.DESCRIPTION).toContain('Notes: Amazon\\, Shopify\\; and more\\nSecond line')
    expect(props.ATTENDEE).toBe(
      'ATTENDEE;CN="Ana A Lopez";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:ana@example.org',
    )
    expect(
      ['VERSION:2.0', 'BEGIN:VEVENT', 'END:VEVENT', 'STATUS:CONFIRMED'].every((l) =>
        lines.includes(l),
      ),
    ).toBe(true)
  })
})

describe('calendar text', () => {
  it('keeps a lone carriage return or a pasted control character from breaking a line', () => {
    const ics = invitation({
      uid: 'booking-8@example.com',
      sequence: 0,
      start: new Date('2026-11-24T09:30:00Z'),
      end: new Date('2026-11-24T10:00:00Z'),
      summary: 'Consultation',
      description: 'Goals:\rmore sales\u0007\u0000, soon',
      organizerEmail: 'hello@example.com',
      organizerName: 'Northstar Growth',
      attendeeEmail: 'ana@example.org',
      attendeeName: 'Ana',
      url: 'https://example.com/contact',
    })
    // every line ends in CRLF, and no line holds a control character
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f]/)
    expect(ics).toContain('DESCRIPTION:Goals:\\nmore sales\\, soon\r\n')
  })
})

let ip = 0
/** A booking as the island posts it, with its challenge token. */
const post = (body: unknown, headers: Record<string, string> = {}) =>
  SELF.fetch('https://example.com/api/bookings', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'CF-Connecting-IP': `192.0.2.${++ip % 250}`,
      ...headers,
    },
    body: JSON.stringify(withToken(body)),
  })
const freeSlots = async () =>
  (
    (await (await SELF.fetch('https://example.com/api/bookings/slots')).json()) as {
      slots: string[]
    }
  ).slots

describe('booking API', () => {
  it('books a free slot, confirms it, queues the e-mail and serves the invitation', async () => {
    // not the first: between listing and posting, the minimum notice can pass it by
    const slot = (await freeSlots())[3]
    const res = await post({
      slot,
      name: 'Ana',
      email: ' Ana@Example.org ',
      notes: 'Amazon PPC',
      timeZone: 'America/New_York',
    })
    expect(res.status).toBe(200)
    const { booking } = (await res.json()) as {
      booking: { start: string; when: string; icsUrl: string; timeZone: string }
    }
    expect(booking.start).toBe(slot)
    expect(booking.timeZone).toBe('America/New_York')
    expect(booking.when).toBe(describeSlot(slot, 'en', 'America/New_York'))
    const row = await env.DB.prepare(
      'SELECT name, email, notes, time_zone FROM bookings WHERE slot_start = ?',
    )
      .bind(slot)
      .first()
    expect(row).toEqual({
      name: 'Ana',
      email: 'ana@example.org',
      notes: 'Amazon PPC',
      time_zone: 'America/New_York',
    })
    expect(await freeSlots()).not.toContain(slot)

    const mail = await lastMail('ana@example.org')
    expect(mail.subject).toBe(en.booking.mail_subject.replace('{{when}}', booking.when))
    expect(mail.body_text).toContain(booking.icsUrl)
    // the invitation travels with it
    expect(mail.attachments.map((a) => a.mimeType)).toEqual(['text/calendar'])
    expect(mail.attachments[0].content).toContain('BEGIN:VEVENT')

    const ics = await SELF.fetch(`https://example.com${booking.icsUrl}`)
    expect(ics.status).toBe(200)
    expect(ics.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    expect(await ics.text()).toContain(`DTSTART:${slot.replace(/[-:]/g, '').replace('.000', '')}`)
    expect(
      (await SELF.fetch('https://example.com/book/00000000-0000-0000-0000-000000000000.ics'))
        .status,
    ).toBe(404)
  })

  it('lets exactly one of 20 visitors racing for one slot book it; the others get fresh slots', async () => {
    const slots = await freeSlots()
    const slot = slots[3]
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post({ slot, name: `Racer ${i}`, email: `racer${i}@example.org` }),
      ),
    )
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(19)
    const loser = (await answers[statuses.indexOf(409)].json()) as {
      error: string
      slots: string[]
    }
    expect([en.booking.slot_taken, en.errors.slot_unavailable]).toContain(loser.error)
    expect(loser.slots).not.toContain(slot)
    expect(loser.slots.length).toBeGreaterThan(10)
    const { n } = (await env.DB.prepare('SELECT count(*) AS n FROM bookings WHERE slot_start = ?')
      .bind(slot)
      .first<{ n: number }>())!
    expect(n).toBe(1)
  })

  it.each([
    ['a past slot', { slot: '2020-01-06T09:00:00.000Z' }],
    ['a time outside the hours', { slot: '2030-01-07T03:00:00.000Z' }],
    ['a slot off the half hour', { slot: 'FIRST+10' }],
  ])('refuses %s with 409 and the free slots', async (_, over) => {
    const [first] = await freeSlots()
    const slot =
      over.slot === 'FIRST+10' ? new Date(Date.parse(first) + 10 * 60_000).toISOString() : over.slot
    const res = await post({ slot, name: 'Ana', email: 'ana@example.org' })
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ error: en.errors.slot_unavailable })
  })

  it.each([
    ['no slot', { name: 'Ana', email: 'ana@example.org' }],
    ['a slot that is not a time', { slot: 'tomorrow', name: 'Ana', email: 'ana@example.org' }],
    ['a bad e-mail', { slot: '2030-01-07T09:00:00.000Z', name: 'Ana', email: 'ana' }],
    ['no name', { slot: '2030-01-07T09:00:00.000Z', name: '', email: 'ana@example.org' }],
    [
      'notes too long',
      {
        slot: '2030-01-07T09:00:00.000Z',
        name: 'A',
        email: 'a@example.org',
        notes: 'x'.repeat(1001),
      },
    ],
  ])('refuses %s with 400', async (_, body) => {
    expect((await post(body)).status).toBe(400)
  })

  it('falls back to the agency zone for an unknown visitor zone', async () => {
    const [, , , , , , slot] = await freeSlots()
    const res = await post({
      slot,
      name: 'Zed',
      email: 'zed@example.org',
      timeZone: 'Mars/Olympus',
    })
    expect(((await res.json()) as { booking: { timeZone: string } }).booking.timeZone).toBe(
      'Europe/London',
    )
  })
})

describe('booking page', () => {
  it('renders the free slots as a form that works without JavaScript, frameable by us only', async () => {
    const res = await SELF.fetch('https://example.com/book?embed=1')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'")
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN')
    const html = await res.text()
    expect(html).toContain('action="/api/bookings"')
    expect((html.match(/<input type="radio"[^>]* name="slot"/g) ?? []).length).toBeGreaterThan(20)
    expect(html).not.toContain('<header')
    const home = await SELF.fetch('https://example.com/')
    expect(home.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(home.headers.get('x-frame-options')).toBe('DENY')
  })
})
