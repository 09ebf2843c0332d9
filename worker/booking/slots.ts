import { addDays } from 'date-fns'
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz'
import type { Bindings } from '../env'

export const SLOT_MINUTES = 30

/** When the agency takes consultations, in its own time zone (wrangler.toml BOOKING_* vars). */
export interface Availability {
  timeZone: string
  /** ISO weekdays, 1 = Monday … 7 = Sunday */
  weekdays: number[]
  /** minutes after midnight, local */
  dayStart: number
  dayEnd: number
  minNoticeMinutes: number
  daysAhead: number
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number)
  return h * 60 + m
}

export function readAvailability(env: Partial<Bindings>): Availability {
  const [start, end] = (env.BOOKING_HOURS || '09:00-17:00').split('-')
  return {
    timeZone: env.BOOKING_TIMEZONE || 'Europe/London',
    weekdays: (env.BOOKING_WEEKDAYS || '1,2,3,4,5').split(',').map(Number),
    dayStart: minutesOf(start),
    dayEnd: minutesOf(end),
    minNoticeMinutes: Number(env.BOOKING_MIN_NOTICE_HOURS || 12) * 60,
    daysAhead: Number(env.BOOKING_DAYS_AHEAD || 14),
  }
}

const pad = (n: number) => String(n).padStart(2, '0')

/**
 * Every bookable slot start from `now` on, as UTC instants. Days and hours are the agency's
 * local ones, so a slot stays at 09:00 in London across a daylight-saving change.
 */
export function generateSlots(a: Availability, now: Date): Date[] {
  const slots: Date[] = []
  const today = formatInTimeZone(now, a.timeZone, 'yyyy-MM-dd')
  const earliest = now.getTime() + a.minNoticeMinutes * 60_000
  for (let d = 0; d <= a.daysAhead; d++) {
    // noon UTC of the local date keeps addDays clear of any DST edge
    const day = formatInTimeZone(addDays(new Date(`${today}T12:00:00Z`), d), 'UTC', 'yyyy-MM-dd')
    const weekday = Number(formatInTimeZone(new Date(`${day}T12:00:00Z`), 'UTC', 'i'))
    if (!a.weekdays.includes(weekday)) continue
    for (let m = a.dayStart; m + SLOT_MINUTES <= a.dayEnd; m += SLOT_MINUTES) {
      const local = `${day}T${pad(Math.floor(m / 60))}:${pad(m % 60)}:00`
      const start = fromZonedTime(local, a.timeZone)
      // a local time skipped by a DST jump does not exist; fromZonedTime would shift it
      if (formatInTimeZone(start, a.timeZone, "yyyy-MM-dd'T'HH:mm:ss") !== local) continue
      if (start.getTime() >= earliest) slots.push(start)
    }
  }
  return slots
}

/** Free slots: generated ones not already booked. */
export function freeSlots(a: Availability, now: Date, booked: Set<string>): string[] {
  return generateSlots(a, now)
    .map((d) => d.toISOString())
    .filter((iso) => !booked.has(iso))
}
