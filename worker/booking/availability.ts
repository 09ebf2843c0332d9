import { addDays } from 'date-fns'
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz'
import * as v from 'valibot'
import type { SlotGuard } from '../db/bookings'
import type { Bindings } from '../bindings'
import { localDay, readAvailability, type Availability } from './slots'

/**
 * The agency's availability as the desk saved it (booking_settings, one row), over
 * wrangler.toml's defaults. The time zone stays the setting's (BOOKING_TIMEZONE).
 */

const Minutes = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(24 * 60))

export const StoredAvailability = v.object({
  hours: v.record(
    v.pipe(v.string(), v.regex(/^[1-7]$/)),
    v.pipe(
      v.object({ start: Minutes, end: Minutes }),
      v.check((h) => h.start < h.end, 'hours_order'),
    ),
  ),
  daysOff: v.pipe(v.array(v.pipe(v.string(), v.isoDate())), v.maxLength(366)),
  minNoticeMinutes: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(60 * 24 * 60)),
  daysAhead: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(365)),
  bufferMinutes: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(240)),
  lengthMinutes: v.picklist([15, 20, 30, 45, 60, 90]),
  dailyMax: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(48)),
})
export type StoredAvailability = v.InferOutput<typeof StoredAvailability>

export async function loadAvailability(env: Bindings): Promise<Availability> {
  const defaults = readAvailability(env)
  const row = await env.DB.prepare('SELECT settings FROM booking_settings WHERE id = 1').first<{
    settings: string
  }>()
  if (!row) return defaults
  let stored: unknown = null
  try {
    stored = JSON.parse(row.settings)
  } catch {
    // a row that is not JSON: the defaults, as if nothing were saved
  }
  const parsed = v.safeParse(StoredAvailability, stored)
  return parsed.success ? { ...defaults, ...parsed.output } : defaults
}

export const saveAvailability = (db: D1Database, a: StoredAvailability, by: string) =>
  db
    .prepare(
      `INSERT INTO booking_settings (id, settings, updated_by) VALUES (1, ?1, ?2)
       ON CONFLICT (id) DO UPDATE SET settings = ?1, updated_by = ?2,
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(JSON.stringify(a), by)

/** What the statement writing a booking at `start` must check (db/bookings.ts). */
export function guardFor(a: Availability, start: string): SlotGuard {
  const day = localDay(a, Date.parse(start))
  const next = formatInTimeZone(addDays(new Date(`${day}T12:00:00Z`), 1), 'UTC', 'yyyy-MM-dd')
  return {
    bufferMinutes: a.bufferMinutes,
    dayStart: fromZonedTime(`${day}T00:00:00`, a.timeZone).toISOString(),
    dayEnd: fromZonedTime(`${next}T00:00:00`, a.timeZone).toISOString(),
    dailyMax: a.dailyMax,
  }
}

/** A meeting's end from its start and length. */
export const endOf = (start: string, minutes: number) =>
  new Date(Date.parse(start) + minutes * 60_000).toISOString()
