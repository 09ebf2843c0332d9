import { Hono, type Context } from 'hono'
import * as v from 'valibot'
import { formFields } from '../api/forms'
import { findBookingById, listUpcomingBookings, type Booking } from '../db/bookings'
import { audit } from '../db/desk'
import type { AppEnv } from '../env'
import { limitBody, sameSiteOnly } from '../middleware/form-guard'
import { loadAvailability, saveAvailability, StoredAvailability } from '../booking/availability'
import { minutesOf } from '../booking/slots'
import { AvailabilityPage, formValues, type AvailabilityForm } from './pages/availability'
import { calendarStatus } from '../calendar/busy'
import { calendarOf } from '../calendar/caldav'
import { feedToken } from '../calendar/feed'
import {
  DESK_BOOKINGS_DONE,
  DeskBookingsPage,
  type CalendarReport,
  type DeskBookingsDone,
} from './pages/bookings'
import { staffOf } from './staff'
import { cancelBooking, currentSlots, moveBooking } from '../services/bookings'

/**
 * /desk/bookings: the coming consultations, to cancel or move (mounted under the desk's staff
 * guard). The slot is freed or taken by one statement in the batch of the visitor's e-mail and
 * the audit row, so a slot never holds two bookings and a visitor is told once.
 */
export const deskBookings = new Hono<AppEnv>()

const back = (c: Context<AppEnv>, done: DeskBookingsDone) =>
  c.redirect(`/desk/bookings?done=${done}`, 303)

/** What the desk says of the agency's calendar: connected or not, last read, errors, owed. */
async function calendarReport(c: Context<AppEnv>): Promise<CalendarReport | null> {
  if (!calendarOf(c.env)) return null
  const db = c.env.DB
  const [status, owed] = await Promise.all([
    calendarStatus(db),
    db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM bookings WHERE calendar_state = 'pending')
              + (SELECT COUNT(*) FROM calendar_deletions) AS n`,
      )
      .first<{ n: number }>(),
  ])
  return {
    fetchedAt: status.fetchedAt ? new Date(status.fetchedAt).toISOString() : null,
    error: status.error,
    errorAt: status.errorAt,
    owed: owed?.n ?? 0,
  }
}

deskBookings.get('/', async (c) => {
  const now = new Date()
  const [bookings, free, calendar] = await Promise.all([
    listUpcomingBookings(c.env.DB, now.toISOString()),
    currentSlots(c, { now }),
    calendarReport(c),
  ])
  const done = DESK_BOOKINGS_DONE.find((d) => d === c.req.query('done'))
  const t = c.var.t
  return c.render(
    <DeskBookingsPage
      bookings={bookings}
      slots={free.slots}
      timeZone={free.timeZone}
      done={done}
      calendar={calendar}
    />,
    {
      title: `${t('desk_bookings.title')} | ${t('meta.title_suffix')}`,
      workspace: true,
      description: t('desk_bookings.description'),
    },
  )
})

const Id = v.pipe(v.string(), v.regex(/^\d{1,12}$/), v.transform(Number))

/** The booking of the URL, if it is still to come (in the agenda); else null. */
async function upcoming(c: Context<AppEnv>): Promise<Booking | null> {
  const id = v.safeParse(Id, c.req.param('id'))
  if (!id.success) return null
  const booking = await findBookingById(c.env.DB, id.output)
  return booking && booking.slotStart >= new Date().toISOString() ? booking : null
}

/** An action that changed nothing (the booking gone, the slot taken) is logged on its own. */
const auditNothing = (c: Context<AppEnv>, action: string, detail: Record<string, unknown>) =>
  audit(c.env.DB, staffOf(c), action, `booking/${c.req.param('id')}`, detail).run()

const guards = [sameSiteOnly(), limitBody(4096)] as const

deskBookings.post('/:id{[0-9]+}/cancel', ...guards, async (c) => {
  const booking = await upcoming(c)
  if (booking && (await cancelBooking(c, booking, staffOf(c)))) return back(c, 'cancelled')
  // never there, past, or cancelled or moved by someone else meanwhile
  await auditNothing(c, 'booking.cancel', { outcome: 'gone' })
  return back(c, 'gone')
})

const Move = v.object({ slot: v.pipe(v.string(), v.isoTimestamp()) })

deskBookings.post('/:id{[0-9]+}/move', ...guards, async (c) => {
  const form = v.safeParse(Move, await formFields(c))
  if (!form.success) return c.json({ error: c.var.t('errors.invalid') }, 400)
  const to = new Date(form.output.slot).toISOString()
  const booking = await upcoming(c)
  if (!booking) {
    await auditNothing(c, 'booking.move', { to, outcome: 'gone' })
    return back(c, 'gone')
  }
  // the form starts on the booking's own time: sent as it was, nothing to do
  if (to === booking.slotStart) return back(c, 'unchanged')
  // only a slot the site offers now: working hours, enough notice, not booked
  const free = await currentSlots(c, { except: booking.id })
  if (free.slots.includes(to) && (await moveBooking(c, booking, to, staffOf(c))))
    return back(c, 'moved')
  // the slot was taken first, unless the booking itself was cancelled or moved meanwhile
  const now = await findBookingById(c.env.DB, booking.id)
  const outcome = now?.slotStart === booking.slotStart ? 'taken' : 'gone'
  await auditNothing(c, 'booking.move', { from: booking.slotStart, to, outcome })
  return back(c, outcome)
})

async function renderAvailability(c: Context<AppEnv>, form: AvailabilityForm, status: 200 | 400) {
  const t = c.var.t
  const [{ timeZone }, token] = await Promise.all([loadAvailability(c.env), feedToken(c.env.DB)])
  const feedUrl = `${c.var.config.siteUrl}/desk/calendar.ics?token=${token}`
  c.status(status)
  return c.render(<AvailabilityPage form={form} timeZone={timeZone} feedUrl={feedUrl} />, {
    title: `${t('desk_bookings.availability.title')} | ${t('meta.title_suffix')}`,
    workspace: true,
    description: t('desk_bookings.description'),
  })
}

deskBookings.get('/availability', async (c) =>
  renderAvailability(
    c,
    {
      values: formValues(await loadAvailability(c.env)),
      issues: {},
      saved: c.req.query('done') === 'saved',
    },
    200,
  ),
)

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/
const whole = (value: string | undefined) => (/^\d{1,6}$/.test(value ?? '') ? Number(value) : NaN)

/** The posted form as the stored shape, or the issue of each field that is wrong. */
function readAvailabilityForm(form: Record<string, string>) {
  const issues: Record<string, string> = {}
  const hours: Record<string, { start: number; end: number }> = {}
  for (let d = 1; d <= 7; d++) {
    if (form[`open_${d}`] !== '1') continue
    const start = form[`start_${d}`] ?? ''
    const end = form[`end_${d}`] ?? ''
    if (!TIME.test(start) || !TIME.test(end)) issues[`hours_${d}`] = 'time'
    else if (minutesOf(start) >= minutesOf(end)) issues[`hours_${d}`] = 'hours_order'
    else hours[d] = { start: minutesOf(start), end: minutesOf(end) }
  }
  const daysOff = (form.days_off ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean)
  const stored = {
    hours,
    daysOff: [...new Set(daysOff)].sort(),
    minNoticeMinutes: whole(form.notice_hours) * 60,
    daysAhead: whole(form.days_ahead),
    bufferMinutes: whole(form.buffer),
    lengthMinutes: whole(form.length),
    dailyMax: whole(form.daily_max),
  }
  const parsed = v.safeParse(StoredAvailability, stored)
  if (!parsed.success)
    for (const i of parsed.issues) {
      const key = String(i.path?.[0]?.key ?? 'form')
      const field =
        {
          daysOff: 'days_off',
          minNoticeMinutes: 'notice_hours',
          daysAhead: 'days_ahead',
          bufferMinutes: 'buffer',
          lengthMinutes: 'length',
          dailyMax: 'daily_max',
        }[key] ?? key
      issues[field] ??= field === 'days_off' ? 'date' : 'number'
    }
  return Object.keys(issues).length || !parsed.success
    ? { issues }
    : { availability: parsed.output }
}

deskBookings.post('/availability', sameSiteOnly(), limitBody(16 * 1024), async (c) => {
  const form = await formFields(c)
  const read = readAvailabilityForm(form)
  if (!read.availability) return renderAvailability(c, { values: form, issues: read.issues }, 400)
  const db = c.env.DB
  await db.batch([
    saveAvailability(db, read.availability, staffOf(c).email),
    audit(db, staffOf(c), 'booking.availability', null, read.availability),
  ])
  return c.redirect('/desk/bookings/availability?done=saved', 303)
})

/** A new address for the calendar feed: the old one stops working at once. */
deskBookings.post('/feed', sameSiteOnly(), limitBody(1024), async (c) => {
  await feedToken(c.env.DB, true)
  await audit(c.env.DB, staffOf(c), 'booking.feed_renew', null).run()
  return c.redirect('/desk/bookings/availability?done=saved', 303)
})
