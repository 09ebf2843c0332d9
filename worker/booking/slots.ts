import { addDays } from 'date-fns'
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz'
import { agencyTimeZone } from '../config'
import type { Bindings } from '../bindings'

/**
 * When the agency takes consultations, in its own time zone: the defaults are wrangler.toml's
 * BOOKING_* vars, the agency's own choice lives in D1 (booking/availability.ts, the desk).
 */
export interface Availability {
  timeZone: string
  /** Opening hours per ISO weekday (1 = Monday … 7 = Sunday), minutes after local midnight. */
  hours: Partial<Record<number, { start: number; end: number }>>
  /** Local dates (YYYY-MM-DD) without calls: days off, holidays. */
  daysOff: string[]
  minNoticeMinutes: number
  daysAhead: number
  /** Free minutes kept before and after every meeting and every busy time of the calendar. */
  bufferMinutes: number
  /** A meeting's length; slots start every this many minutes from the day's opening. */
  lengthMinutes: number
  /** Meetings a day at most; 0: no limit. */
  dailyMax: number
}

/** A span of time taken (a booking, or a busy time of the agency's calendar), in ms. */
export interface Interval {
  start: number
  end: number
}

export const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number)
  return h * 60 + m
}

const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value)
  return value && Number.isFinite(n) && n >= 0 ? n : fallback
}

/** The defaults, from wrangler.toml's vars. */
export function readAvailability(env: Partial<Bindings>): Availability {
  const [start, end] = (env.BOOKING_HOURS || '09:00-17:00').split('-')
  const weekdays = (env.BOOKING_WEEKDAYS || '1,2,3,4,5').split(',').map(Number)
  return {
    timeZone: agencyTimeZone(env),
    hours: Object.fromEntries(
      weekdays.map((d) => [d, { start: minutesOf(start), end: minutesOf(end) }]),
    ),
    daysOff: [],
    minNoticeMinutes: positive(env.BOOKING_MIN_NOTICE_HOURS, 12) * 60,
    daysAhead: positive(env.BOOKING_DAYS_AHEAD, 14),
    bufferMinutes: positive(env.BOOKING_BUFFER_MINUTES, 0),
    lengthMinutes: positive(env.BOOKING_LENGTH_MINUTES, 30) || 30,
    dailyMax: positive(env.BOOKING_DAILY_MAX, 0),
  }
}

const pad = (n: number) => String(n).padStart(2, '0')

/** The agency's local date of an instant. */
export const localDay = (a: Pick<Availability, 'timeZone'>, at: Date | number) =>
  formatInTimeZone(at, a.timeZone, 'yyyy-MM-dd')

/**
 * Every slot start the hours allow from `now` on, as UTC instants. Days and hours are the
 * agency's local ones, so a slot stays at 09:00 in London across a daylight-saving change.
 */
export function generateSlots(a: Availability, now: Date): Date[] {
  const slots: Date[] = []
  const today = localDay(a, now)
  const earliest = now.getTime() + a.minNoticeMinutes * 60_000
  const length = a.lengthMinutes
  for (let d = 0; d <= a.daysAhead; d++) {
    // noon UTC of the local date keeps addDays clear of any DST edge
    const day = formatInTimeZone(addDays(new Date(`${today}T12:00:00Z`), d), 'UTC', 'yyyy-MM-dd')
    const weekday = Number(formatInTimeZone(new Date(`${day}T12:00:00Z`), 'UTC', 'i'))
    const hours = a.hours[weekday]
    if (!hours || a.daysOff.includes(day)) continue
    for (let m = hours.start; m + length <= hours.end; m += length) {
      const local = `${day}T${pad(Math.floor(m / 60))}:${pad(m % 60)}:00`
      const start = fromZonedTime(local, a.timeZone)
      // a local time skipped by a DST jump does not exist; fromZonedTime would shift it
      if (formatInTimeZone(start, a.timeZone, "yyyy-MM-dd'T'HH:mm:ss") !== local) continue
      if (start.getTime() >= earliest) slots.push(start)
    }
  }
  return slots
}

/**
 * Free slots: generated ones clear of every taken interval by the buffer on both sides, on
 * days with fewer than the daily maximum of bookings. `booked` are the bookings (they count
 * toward the maximum); `busy` the calendar's busy times.
 */
export function freeSlots(
  a: Availability,
  now: Date,
  booked: Interval[],
  busy: Interval[] = [],
): string[] {
  const buffer = a.bufferMinutes * 60_000
  const length = a.lengthMinutes * 60_000
  const taken = [...booked, ...busy]
  const perDay = new Map<string, number>()
  for (const b of booked)
    perDay.set(localDay(a, b.start), (perDay.get(localDay(a, b.start)) ?? 0) + 1)
  return generateSlots(a, now)
    .filter((start) => {
      const s = start.getTime()
      if (a.dailyMax && (perDay.get(localDay(a, s)) ?? 0) >= a.dailyMax) return false
      return !taken.some((t) => s < t.end + buffer && s + length > t.start - buffer)
    })
    .map((d) => d.toISOString())
}
