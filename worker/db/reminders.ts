import type { Booking } from './bookings'

/**
 * The reminders of coming calls (migrations/0017: `reminded_24h_at`, `reminded_1h_at`): each
 * is sent once, claimed by setting its time in the same D1 batch as its e-mail.
 */

export type ReminderColumn = 'reminded_24h_at' | 'reminded_1h_at'

/**
 * The bookings whose reminder `column` is not claimed yet, starting after `from` and by `to`,
 * booked at least `hours` before their time, and posted with the challenge (an unchecked
 * booking is e-mailed nothing).
 */
export async function listDueReminders(
  db: D1Database,
  column: ReminderColumn,
  hours: number,
  from: string,
  to: string,
) {
  const { results } = await db
    .prepare(
      `SELECT id FROM bookings
       WHERE ${column} IS NULL AND slot_start > ?1 AND slot_start <= ?2 AND unchecked = 0
         AND created_at <= strftime('%Y-%m-%dT%H:%M:%fZ', slot_start, '-${hours} hours')
       ORDER BY slot_start`,
    )
    .bind(from, to)
    .all<{ id: number }>()
  return results.map((r) => r.id)
}

/**
 * Claims a booking's reminder at `at`: a statement for one batch with the reminder's e-mail,
 * which is written only if this changed the row. Once, and only while the booking is at the
 * time and version the e-mail names (a move meanwhile clears both claims: reminded anew).
 */
export function claimReminder(
  db: D1Database,
  booking: Pick<Booking, 'id' | 'slotStart' | 'sequence'>,
  column: ReminderColumn,
  at: string,
) {
  return db
    .prepare(
      `UPDATE bookings SET ${column} = ?1
       WHERE id = ?2 AND ${column} IS NULL AND slot_start = ?3 AND sequence = ?4 RETURNING id`,
    )
    .bind(at, booking.id, booking.slotStart, booking.sequence)
}
