import { XMLParser } from 'fast-xml-parser'
import type { Bindings } from '../bindings'

/**
 * The agency's calendar over CalDAV (RFC 4791): a time-range calendar-query to read its events
 * (recurrences expanded here, by ical.js: servers differ in <expand>), PUT to write a booking's
 * event, DELETE to remove it. Or, read-only, an iCalendar feed (the "secret address" Google
 * Calendar and Outlook give). Settings: CALDAV_URL (the calendar collection), CALDAV_USERNAME,
 * CALDAV_PASSWORD; CALENDAR_ICS_URL.
 */

export interface CalendarSource {
  /** The calendar collection's URL, ending in a slash. */
  caldav?: string
  feed?: string
  authorization?: string
}

export function calendarOf(env: Bindings): CalendarSource | null {
  const caldav = env.CALDAV_URL ? env.CALDAV_URL.replace(/\/?$/, '/') : undefined
  const feed = env.CALENDAR_ICS_URL || undefined
  if (!caldav && !feed) return null
  const authorization =
    env.CALDAV_USERNAME && env.CALDAV_PASSWORD
      ? `Basic ${btoa(`${env.CALDAV_USERNAME}:${env.CALDAV_PASSWORD}`)}`
      : undefined
  return { caldav, feed, authorization }
}

export class CalendarError extends Error {}

/** How long the calendar may take to answer one call. */
export const CALENDAR_TIMEOUT_MS = 5_000

/**
 * One request to the calendar, given `timeoutMs` in all. A connection the server closed under
 * a reused one ("Network connection lost") is tried once more: every call here is idempotent.
 */
async function call(source: CalendarSource, url: string, init: RequestInit, timeoutMs: number) {
  const signal = AbortSignal.timeout(timeoutMs)
  const headers = {
    ...(source.authorization ? { Authorization: source.authorization } : {}),
    ...init.headers,
  }
  for (let attempt = 1; ; attempt++)
    try {
      return await fetch(url, { ...init, headers, signal })
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      if (attempt === 1 && !signal.aborted && /connection lost/i.test(message)) continue
      throw new CalendarError(`calendar: ${message}`)
    }
}

const caldavTime = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

const parser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: true, parseTagValue: false })
const list = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value]

/** The calendar's objects with an event in [from, to): their iCalendar texts. */
export async function readCalendar(
  source: CalendarSource,
  from: number,
  to: number,
  timeoutMs = CALENDAR_TIMEOUT_MS,
): Promise<string[]> {
  if (!source.caldav) {
    const res = await call(source, source.feed!, { method: 'GET' }, timeoutMs)
    if (!res.ok) {
      await res.body?.cancel()
      throw new CalendarError(`calendar feed: ${res.status}`)
    }
    return [await res.text()]
  }
  const body = `<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:prop><d:getetag/><c:calendar-data/></d:prop>
  <c:filter>
    <c:comp-filter name="VCALENDAR">
      <c:comp-filter name="VEVENT">
        <c:time-range start="${caldavTime(from)}" end="${caldavTime(to)}"/>
      </c:comp-filter>
    </c:comp-filter>
  </c:filter>
</c:calendar-query>`
  const res = await call(
    source,
    source.caldav,
    {
      method: 'REPORT',
      headers: { Depth: '1', 'Content-Type': 'application/xml; charset=utf-8' },
      body,
    },
    timeoutMs,
  )
  if (res.status !== 207) {
    await res.body?.cancel()
    throw new CalendarError(`calendar REPORT: ${res.status}`)
  }
  const xml = parser.parse(await res.text()) as {
    multistatus?: { response?: unknown }
  }
  const texts: string[] = []
  for (const response of list(xml.multistatus?.response as object | object[]))
    for (const propstat of list((response as { propstat?: unknown }).propstat as object[]))
      if (/ 200 /.test(String((propstat as { status?: string }).status ?? ''))) {
        const data = (propstat as { prop?: { 'calendar-data'?: unknown } }).prop?.['calendar-data']
        if (typeof data === 'string' && data.includes('BEGIN:VCALENDAR')) texts.push(data)
      }
  return texts
}

/** The resource of a booking's event in the calendar collection. */
const resource = (source: CalendarSource, uid: string) =>
  `${source.caldav}${encodeURIComponent(uid.replace(/[^\w.@-]/g, '-'))}.ics`

/** Writes (or overwrites) a booking's event. */
export async function putEvent(source: CalendarSource, uid: string, ics: string) {
  const res = await call(
    source,
    resource(source, uid),
    { method: 'PUT', headers: { 'Content-Type': 'text/calendar; charset=utf-8' }, body: ics },
    CALENDAR_TIMEOUT_MS,
  )
  await res.body?.cancel()
  if (!res.ok) throw new CalendarError(`calendar PUT: ${res.status}`)
}

/** Removes a booking's event; one already gone is fine. */
export async function deleteEvent(source: CalendarSource, uid: string) {
  const res = await call(source, resource(source, uid), { method: 'DELETE' }, CALENDAR_TIMEOUT_MS)
  await res.body?.cancel()
  if (!res.ok && res.status !== 404) throw new CalendarError(`calendar DELETE: ${res.status}`)
}
