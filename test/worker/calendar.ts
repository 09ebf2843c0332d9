import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import ICAL from 'ical.js'
import { formatInTimeZone } from 'date-fns-tz'
import type { Bindings } from '../../worker/bindings'
import app from '../../worker/index'
import { SITE } from './auth/helpers'
import { withToken } from './challenge'

/** What the calendar tests share: a calendar of their own on the tests' Radicale, and the site. */

const user = { username: 'agency', password: 'agency-password' }
const authorization = `Basic ${btoa(`${user.username}:${user.password}`)}`

export interface TestCalendar {
  url: string
  /** The site's bindings with this calendar as the agency's (CalDAV). */
  site: Bindings
}

/** fetch, once more when the server closed a reused connection (Radicale does). */
async function dav(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch (err) {
    if (!/connection lost/i.test(String(err))) throw err
    return fetch(url, init)
  }
}

/** A new, empty calendar collection on Radicale. */
export async function newCalendar(over: Partial<Bindings> = {}): Promise<TestCalendar> {
  const url = `${env.TEST_RADICALE_URL}${user.username}/${crypto.randomUUID()}/`
  // an extended MKCOL (RFC 5689): workerd's fetch knows no MKCALENDAR method
  const res = await dav(url, {
    method: 'MKCOL',
    headers: { Authorization: authorization, 'Content-Type': 'application/xml' },
    body: `<?xml version="1.0" encoding="utf-8"?>
<D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:set><D:prop>
    <D:resourcetype><D:collection/><C:calendar/></D:resourcetype>
    <D:displayname>Agency</D:displayname>
  </D:prop></D:set>
</D:mkcol>`,
  })
  await res.body?.cancel()
  if (res.status !== 201) throw new Error(`MKCOL ${res.status}`)
  return {
    url,
    site: {
      ...env,
      CALDAV_URL: url,
      CALDAV_USERNAME: user.username,
      CALDAV_PASSWORD: user.password,
      ...over,
    } as Bindings,
  }
}

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

const ZONE = 'Europe/London'
const local = (iso: string) => formatInTimeZone(iso, ZONE, "yyyyMMdd'T'HHmmss")
/** The zone's rules since 1996, as a calendar app sends them with its events. */
const LONDON = [
  'BEGIN:VTIMEZONE',
  `TZID:${ZONE}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0000',
  'TZOFFSETTO:+0100',
  'TZNAME:BST',
  'DTSTART:19700329T010000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0000',
  'TZNAME:GMT',
  'DTSTART:19701025T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
]

/** The agency puts an event in its calendar, as its calendar app would. */
export async function addEvent(
  calendar: TestCalendar,
  e: { start: string; end: string; summary?: string; rrule?: string; transparent?: boolean },
) {
  const uid = `agency-${crypto.randomUUID()}`
  const ics = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//Agency calendar//EN',
    ...LONDON,
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTAMP:${stamp(new Date())}`,
    // in the agency's zone, as calendar apps write them: a weekly meeting stays at 10:00 London
    // time across a daylight-saving change (in UTC it would move by an hour)
    `DTSTART;TZID=${ZONE}:${local(e.start)}`,
    `DTEND;TZID=${ZONE}:${local(e.end)}`,
    `SUMMARY:${e.summary ?? 'Agency meeting'}`,
    ...(e.rrule ? [`RRULE:${e.rrule}`] : []),
    ...(e.transparent ? ['TRANSP:TRANSPARENT'] : []),
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n')
  const res = await dav(`${calendar.url}${uid}.ics`, {
    method: 'PUT',
    headers: { Authorization: authorization, 'Content-Type': 'text/calendar; charset=utf-8' },
    body: ics,
  })
  await res.body?.cancel()
  if (res.status !== 201) throw new Error(`PUT ${res.status}`)
  return uid
}

/** Every event in the calendar, as a calendar app reads them. */
export async function calendarEvents(calendar: TestCalendar) {
  const res = await dav(calendar.url, {
    method: 'REPORT',
    headers: { Authorization: authorization, Depth: '1', 'Content-Type': 'application/xml' },
    body: `<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:prop><c:calendar-data/></d:prop>
  <c:filter><c:comp-filter name="VCALENDAR"/></c:filter>
</c:calendar-query>`,
  })
  const xml = await res.text()
  const texts = [...xml.matchAll(/<C:calendar-data>([\s\S]*?)<\/C:calendar-data>/g)].map((m) =>
    m[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
  )
  return texts.map((text) => {
    const event = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')!
    return {
      uid: String(event.getFirstPropertyValue('uid')),
      summary: String(event.getFirstPropertyValue('summary')),
      start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
      sequence: Number(event.getFirstPropertyValue('sequence') ?? 0),
      url: String(event.getFirstPropertyValue('url') ?? ''),
    }
  })
}

/** A request to the site with these bindings, its background work (waitUntil) awaited. */
export async function siteFetch(site: Bindings, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(SITE + path, init), site, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

/** A form posted as a browser posts it from the site's own page (a staff member's with `cookie`). */
export const postForm = (
  site: Bindings,
  path: string,
  fields: Record<string, string>,
  cookie?: string,
) =>
  siteFetch(site, path, {
    method: 'POST',
    headers: {
      ...(cookie ? { Cookie: cookie } : {}),
      Origin: SITE,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields),
  })

/** A booking posted as the booking form posts it (JSON, with its challenge token). */
export const bookSlot = (
  site: Bindings,
  slot: string,
  name = 'Ada Lovelace',
  email = `cal-${crypto.randomUUID().slice(0, 8)}@example.org`,
) =>
  siteFetch(site, '/api/bookings', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: SITE,
      'CF-Connecting-IP': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    },
    body: JSON.stringify(withToken({ slot, name, email, timeZone: 'Europe/London' })),
  })

/** The free slots the booking page gets. */
export async function slotsOf(site: Bindings) {
  const res = await siteFetch(site, '/api/bookings/slots')
  return ((await res.json()) as { slots: string[] }).slots
}
