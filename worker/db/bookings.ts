export interface NewBooking {
  slotStart: string
  name: string
  email: string
  notes?: string
  timeZone: string
  language: string
}

export interface Booking extends NewBooking {
  id: number
  token: string
}

export async function listBookedSlots(db: D1Database, fromIso: string): Promise<Set<string>> {
  const { results } = await db
    .prepare('SELECT slot_start FROM bookings WHERE slot_start >= ?')
    .bind(fromIso)
    .all<{ slot_start: string }>()
  return new Set(results.map((r) => r.slot_start))
}

/**
 * Books a slot (a statement, for one batch with its e-mails). The UNIQUE slot_start column
 * decides races: of two visitors booking one slot at once, exactly one insert returns its row;
 * the other learns the slot is taken.
 */
export function insertBooking(db: D1Database, b: NewBooking & { token: string }) {
  return db
    .prepare(
      `INSERT INTO bookings (slot_start, name, email, notes, time_zone, language, token)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (slot_start) DO NOTHING
       RETURNING id`,
    )
    .bind(b.slotStart, b.name, b.email, b.notes || null, b.timeZone, b.language, b.token)
}

const COLUMNS = 'id, slot_start, name, email, notes, time_zone, language, token'

const toBooking = (row: Record<string, string | number | null>): Booking => ({
  id: row.id as number,
  slotStart: row.slot_start as string,
  name: row.name as string,
  email: row.email as string,
  notes: (row.notes as string) ?? undefined,
  timeZone: row.time_zone as string,
  language: row.language as string,
  token: row.token as string,
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
 * Moves a booking from `from` to `to` (a statement, for one batch with its e-mail). The UNIQUE
 * slot_start column decides races: a slot taken meanwhile, by a visitor or another move, makes
 * the update a no-op (OR IGNORE) that returns no row; so does a booking no longer at `from`.
 */
export function moveBookingSlot(db: D1Database, id: number, from: string, to: string) {
  return db
    .prepare(
      'UPDATE OR IGNORE bookings SET slot_start = ?3 WHERE id = ?1 AND slot_start = ?2 RETURNING id',
    )
    .bind(id, from, to)
}
