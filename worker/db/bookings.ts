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

export async function findBooking(db: D1Database, token: string): Promise<Booking | null> {
  const row = await db
    .prepare(
      'SELECT id, slot_start, name, email, notes, time_zone, language, token FROM bookings WHERE token = ?',
    )
    .bind(token)
    .first<Record<string, string | number | null>>()
  if (!row) return null
  return {
    id: row.id as number,
    slotStart: row.slot_start as string,
    name: row.name as string,
    email: row.email as string,
    notes: (row.notes as string) ?? undefined,
    timeZone: row.time_zone as string,
    language: row.language as string,
    token: row.token as string,
  }
}
