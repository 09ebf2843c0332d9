// The agency's calendar on a fresh machine: a CalDAV server (RFC 4791) that `npm install`
// brings (Forward Email's caldav-adapter on Koa), with one user and one calendar, kept in a
// JSON file beside the local D1. `npm start` runs it and points CALDAV_URL at it, so booking
// reads its busy times and writes its events with nothing to configure; any CalDAV app
// (Thunderbird, Apple Calendar, DAVx⁵) can open it at the URL `npm start` prints.
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import caldav from 'caldav-adapter'
import Koa from 'koa'

export const LOCAL_CALDAV_USER = { username: 'agency', password: 'agency' }
const CALENDAR_ID = 'agency'

/** The calendar's URL on a server at `origin`. */
export const localCalendarUrl = (origin) =>
  `${origin}/cal/${LOCAL_CALDAV_USER.username}/${CALENDAR_ID}/`

/**
 * Starts the server on `port` (127.0.0.1 only), the calendar kept in `file`. Resolves to its
 * calendar's URL, the credentials and `stop()`.
 */
export async function startCalDavServer({ port, file }) {
  mkdirSync(dirname(file), { recursive: true })
  const load = () => {
    try {
      return JSON.parse(readFileSync(file, 'utf8'))
    } catch {
      return { events: {} }
    }
  }
  const store = load()
  const save = () => writeFileSync(file, JSON.stringify(store, null, 2))
  const calendar = {
    calendarId: CALENDAR_ID,
    ownerId: LOCAL_CALDAV_USER.username,
    name: 'Agency',
    description: 'The agency calendar of the local site',
    timezone: 'Europe/London',
    color: '#1d3fb0',
    order: 1,
    readonly: false,
    synctoken: 'local-1',
    prodId: '-//Northstar Growth//Local CalDAV//EN',
  }
  const eventOf = (eventId) => {
    const stored = store.events[eventId.replace(/\.ics$/, '')]
    return stored
      ? { eventId: eventId.replace(/\.ics$/, ''), calendarId: CALENDAR_ID, ...stored }
      : null
  }
  const etag = (ical) => createHash('sha256').update(ical).digest('hex').slice(0, 32)
  const write = (ctx, { eventId }) => {
    const id = eventId.replace(/\.ics$/, '')
    const ical = String(ctx.request.body)
    store.events[id] = { ical, updated_at: new Date().toISOString() }
    save()
    return eventOf(id)
  }
  const ours = (calendarId) => calendarId === CALENDAR_ID
  const app = new Koa()
  app.use(
    caldav({
      authRealm: 'Northstar Growth local calendar',
      caldavRoot: '/',
      calendarRoot: 'cal',
      principalRoot: 'p',
      authenticate: async (_ctx, { username, password }) =>
        username === LOCAL_CALDAV_USER.username && password === LOCAL_CALDAV_USER.password
          ? {
              principalId: username,
              principalName: username,
              id: username,
              email: `${username}@localhost`,
            }
          : null,
      data: {
        getCalendar: async (_ctx, { calendarId }) => (ours(calendarId) ? calendar : null),
        getCalendarId: (_ctx, c) => c.calendarId,
        getCalendarsForPrincipal: async () => [calendar],
        createCalendar: async () => calendar,
        updateCalendar: async () => calendar,
        deleteCalendar: async () => undefined,
        getEvent: async (_ctx, { eventId, calendarId }) =>
          ours(calendarId) ? eventOf(eventId) : null,
        getEventsForCalendar: async () => Object.keys(store.events).map((id) => eventOf(id)),
        // the time range is applied by the reader (recurrences need expanding there anyway)
        getEventsByDate: async () => Object.keys(store.events).map((id) => eventOf(id)),
        createEvent: async (ctx, args) => write(ctx, args),
        updateEvent: async (ctx, args) => write(ctx, args),
        deleteEvent: async (_ctx, { eventId }) => {
          delete store.events[eventId.replace(/\.ics$/, '')]
          save()
        },
        getETag: (_ctx, e) => etag(e.ical ?? JSON.stringify(e)),
        buildICS: async (_ctx, e) => e.ical,
        getFreeBusy: async () => [],
        getSchedulingMessages: async () => [],
        sendSchedulingMessage: async () => undefined,
      },
    }),
  )
  const server = await new Promise((resolve) => {
    const s = app.listen(port, '127.0.0.1', () => resolve(s))
  })
  const origin = `http://127.0.0.1:${server.address().port}`
  return {
    url: localCalendarUrl(origin),
    ...LOCAL_CALDAV_USER,
    stop: () => server.close(),
  }
}
