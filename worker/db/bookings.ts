export interface NewBooking {
  slotStart: string
  /** The meeting's end: its start and the length set when it was booked. */
  slotEnd: string
  name: string
  email: string
  notes?: string
  timeZone: string
  language: string
}

export interface Booking extends NewBooking {
  id: number
  token: string
  /** The invitation's SEQUENCE: one more at each move. */
  sequence: number
  /** The event's UID (null for bookings from before it was stored). */
  uid?: string
  meetingUrl?: string
  /**
   * Booked without the challenge (no JavaScript), before such posts stopped taking a slot
   * (issue 55): the visitor was e-mailed nothing, and gets no reminders.
   */
  unchecked?: boolean
}

/** A booking's end; a row written without one (by hand, say) takes the old 30 minutes. */
const END = "coalesce(slot_end, strftime('%Y-%m-%dT%H:%M:%fZ', slot_start, '+30 minutes'))"

/** The bookings that end after `fromIso`, as taken intervals (ms), but for booking `except`. */
export async function listBookedIntervals(db: D1Database, fromIso: string, except = 0) {
  const { results } = await db
    .prepare(
      `SELECT slot_start, slot_end FROM (SELECT id, slot_start, ${END} AS slot_end FROM bookings)
       WHERE slot_end > ? AND id != ?`,
    )
    .bind(fromIso, except)
    .all<{ slot_start: string; slot_end: string }>()
  return results.map((r) => ({ start: Date.parse(r.slot_start), end: Date.parse(r.slot_end) }))
}

/**
 * What a booking must leave free, checked by the statement that writes it: no other booking
 * within the buffer of its span, and fewer than the daily maximum on its local day.
 */
export interface SlotGuard {
  bufferMinutes: number
  /** The UTC bounds of the booking's local day, and the most bookings it may hold (0: any). */
  dayStart: string
  dayEnd: string
  dailyMax: number
}

const ms = (iso: string, minutes: number) =>
  new Date(Date.parse(iso) + minutes * 60_000).toISOString()

/** The SQL condition of a guard: `?1` start, `?2` end of the new span, `id` to leave out. */
const clearOf = (except: string) => `
  NOT EXISTS (SELECT 1 FROM bookings o WHERE ${except}
              o.slot_start < ?g1 AND ${END.replaceAll('slot_', 'o.slot_')} > ?g2)
  AND (?g5 = 0 OR (SELECT COUNT(*) FROM bookings d WHERE ${except.replaceAll('o.', 'd.')}
                   d.slot_start >= ?g3 AND d.slot_start < ?g4) < ?g5)`

/**
 * Books a slot (a statement, for one batch with its e-mails). One statement decides races: of
 * two visitors booking one slot, or overlapping ones, at once, exactly one insert returns its
 * row (D1 runs writes one at a time; slot_start is UNIQUE besides); the other learns the slot is
 * taken.
 */
export function insertBooking(
  db: D1Database,
  b: NewBooking & { token: string; uid: string; meetingUrl?: string },
  guard: SlotGuard,
  calendar: boolean,
) {
  const sql = `INSERT INTO bookings
       (slot_start, slot_end, name, email, notes, time_zone, language, token, meeting_url,
        calendar_state, uid)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ${calendar ? "'pending'" : 'NULL'}, ?15
     WHERE ${clearOf('')}
     ON CONFLICT (slot_start) DO NOTHING
     RETURNING id`
  return db
    .prepare(numbered(sql))
    .bind(
      b.slotStart,
      b.slotEnd,
      b.name,
      b.email,
      b.notes || null,
      b.timeZone,
      b.language,
      b.token,
      b.meetingUrl ?? null,
      ...guardValues(b.slotStart, b.slotEnd, guard),
      b.uid,
    )
}

/** ?g1…?g5 after the statement's own nine parameters. */
const numbered = (sql: string) => sql.replace(/\?g(\d)/g, (_, n) => `?${9 + Number(n)}`)
const guardValues = (start: string, end: string, g: SlotGuard) => [
  ms(end, g.bufferMinutes),
  ms(start, -g.bufferMinutes),
  g.dayStart,
  g.dayEnd,
  g.dailyMax,
]

const COLUMNS =
  'id, slot_start, slot_end, name, email, notes, time_zone, language, token, sequence, meeting_url, uid, unchecked'

const toBooking = (row: Record<string, string | number | null>): Booking => ({
  id: row.id as number,
  slotStart: row.slot_start as string,
  slotEnd:
    (row.slot_end as string | null) ??
    new Date(Date.parse(row.slot_start as string) + 30 * 60_000).toISOString(),
  sequence: (row.sequence as number) ?? 0,
  meetingUrl: (row.meeting_url as string) ?? undefined,
  uid: (row.uid as string) ?? undefined,
  name: row.name as string,
  email: row.email as string,
  notes: (row.notes as string) ?? undefined,
  timeZone: row.time_zone as string,
  language: row.language as string,
  token: row.token as string,
  unchecked: row.unchecked === 1,
})

export async function findBooking(db: D1Database, token: string): Promise<Booking | null> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM bookings WHERE token = ?`)
    .bind(token)
    .first<Record<string, string | number | null>>()
  return row ? toBooking(row) : null
}

/** One booking by its id (the desk's forms). */
export async function findBookingById(db: D1Database, id: number): Promise<Booking | null> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM bookings WHERE id = ?`)
    .bind(id)
    .first<Record<string, string | number | null>>()
  return row ? toBooking(row) : null
}

/** The bookings from a time on, soonest first (the desk's agenda; its unique index's order). */
export async function listUpcomingBookings(
  db: D1Database,
  fromIso: string,
  limit = 500,
): Promise<Booking[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM bookings WHERE slot_start >= ? ORDER BY slot_start LIMIT ?`)
    .bind(fromIso, limit)
    .all<Record<string, string | number | null>>()
  return results.map(toBooking)
}

/**
 * Cancels a booking, freeing its slot (a statement, for one batch with its e-mail). Only while
 * it is still at `slotStart`, the time the e-mail names: a booking moved or cancelled meanwhile
 * returns no row, and the statements after it that check `changes()` write nothing.
 */
export function deleteBooking(db: D1Database, id: number, slotStart: string) {
  return db
    .prepare('DELETE FROM bookings WHERE id = ? AND slot_start = ? RETURNING id')
    .bind(id, slotStart)
}

/**
 * Moves a booking from `from` to the span `to`–`toEnd` (a statement, for one batch with its
 * e-mail), its SEQUENCE one more. The guard, in the same statement, and the UNIQUE slot_start
 * decide races: a slot taken meanwhile, by a visitor or another move, makes the update a no-op
 * that returns no row; so does a booking no longer at `from`.
 */
export function moveBookingSlot(
  db: D1Database,
  id: number,
  from: string,
  to: string,
  toEnd: string,
  guard: SlotGuard,
) {
  const sql = `UPDATE OR IGNORE bookings
     SET slot_start = ?3, slot_end = ?4, sequence = sequence + 1,
         reminded_24h_at = NULL, reminded_1h_at = NULL,
         calendar_state = CASE WHEN calendar_state IS NULL THEN NULL ELSE 'pending' END
     WHERE id = ?1 AND slot_start = ?2 AND ${clearOf('o.id != ?1 AND')}
     RETURNING id, sequence`
  return db
    .prepare(sql.replace(/\?g(\d)/g, (_, n) => `?${4 + Number(n)}`))
    .bind(id, from, to, toEnd, ...guardValues(to, toEnd, guard))
}

/**
 * A cancelled booking's invitation, as its e-mails carry it and its .ics link serves it
 * (booking_cancellations).
 */
export type CancelledBooking = Pick<
  Booking,
  'token' | 'uid' | 'sequence' | 'slotStart' | 'slotEnd' | 'name' | 'email' | 'meetingUrl'
>

/**
 * Keeps a cancelled booking's invitation, as its cancel was sent (its UID, one SEQUENCE past the
 * last): a statement for the cancel's batch, written only once booking `id` is gone, whoever
 * deleted it.
 */
export function keepCancellation(db: D1Database, id: number, c: CancelledBooking) {
  return db
    .prepare(
      `INSERT INTO booking_cancellations
         (token, uid, sequence, slot_start, slot_end, name, email, meeting_url)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
       WHERE NOT EXISTS (SELECT 1 FROM bookings WHERE id = ?9)
       ON CONFLICT (token) DO NOTHING`,
    )
    .bind(
      c.token,
      c.uid ?? null,
      c.sequence,
      c.slotStart,
      c.slotEnd,
      c.name,
      c.email,
      c.meetingUrl ?? null,
      id,
    )
}

export async function findCancellation(db: D1Database, token: string) {
  const row = await db
    .prepare(
      `SELECT token, uid, sequence, slot_start, slot_end, name, email, meeting_url
       FROM booking_cancellations WHERE token = ?`,
    )
    .bind(token)
    .first<Record<string, string | number | null>>()
  if (!row) return null
  return {
    token: row.token as string,
    uid: row.uid as string,
    sequence: row.sequence as number,
    slotStart: row.slot_start as string,
    slotEnd: row.slot_end as string,
    name: row.name as string,
    email: row.email as string,
    meetingUrl: (row.meeting_url as string | null) ?? undefined,
  } satisfies CancelledBooking
}

/** The daily clean-up: cancellations of calls a day past (no calendar needs them then). */
export const purgeCancellations = (db: D1Database) =>
  db.prepare(
    "DELETE FROM booking_cancellations WHERE slot_end < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')",
  )
