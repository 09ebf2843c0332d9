/**
 * Every row the site keeps about an e-mail address, for a copy (export) or an erasure. The auth
 * service's rows are its own (auth-service/db.ts deleteUser); the analytics hold no addresses;
 * the desk's log keeps its rows with the address's hash instead.
 * A new table with an address in it belongs here: test/worker/privacy/data-rights.test.ts looks
 * for the address in every column of every table after an erasure.
 */

/**
 * Whether a row's JSON `path` is the address: read as JSON where the row is valid JSON, else
 * searched as text. One unreadable row (a write cut short, a hand edit) must neither stop
 * everyone's erasure with "malformed JSON" nor keep the address it holds; CASE, because SQLite
 * may evaluate an AND's terms in any order.
 */
const namesIn = (column: string, path: string) =>
  `CASE WHEN json_valid(${column}) THEN json_extract(${column}, '${path}') = ?1 ELSE instr(${column}, ?1) > 0 END`

/** The agency's notices about a person name them in their data, not as the recipient. */
const MAILS_ABOUT = `to_address = ?1 OR (category = 'agency' AND ${namesIn('data', '$.email')})`

export async function personalRows(db: D1Database, email: string) {
  const [subscriptions, guideRequests, contactMessages, bookings, cancels, sent] = await db.batch([
    db
      .prepare(
        `SELECT email, name, status, signup_form, language, source, consent_version,
                consented_at, confirmed_at, confirm_ip_hash, unsubscribed_at, created_at
         FROM subscribers WHERE email = ?1`,
      )
      .bind(email),
    db
      .prepare(
        'SELECT email, name, guide, language, created_at FROM guide_requests WHERE email = ?1',
      )
      .bind(email),
    db
      .prepare(
        `SELECT name, email, company, service, budget, message, language, created_at
         FROM contact_messages WHERE email = ?1`,
      )
      .bind(email),
    db
      .prepare(
        `SELECT slot_start, name, email, notes, time_zone, language, created_at
         FROM bookings WHERE email = ?1`,
      )
      .bind(email),
    db
      .prepare(
        `SELECT slot_start, slot_end, name, email, created_at AS cancelled_at
         FROM booking_cancellations WHERE email = ?1`,
      )
      .bind(email),
    // what was sent to the address and how it went; never a one-time code or link in its data
    db
      .prepare(
        `SELECT kind, subject, status, attempts, created_at, sent_at
         FROM mail_outbox WHERE to_address = ?1 ORDER BY id`,
      )
      .bind(email),
  ])
  return {
    subscriptions: subscriptions.results,
    guide_requests: guideRequests.results,
    contact_messages: contactMessages.results,
    bookings: bookings.results,
    cancelled_bookings: cancels.results,
    emails: sent.results,
  }
}

export async function suppressionOf(db: D1Database, emailHash: string) {
  return db
    .prepare('SELECT reason, created_at FROM mail_suppressions WHERE email_hash = ?')
    .bind(emailHash)
    .first<{ reason: string; created_at: string }>()
}

/**
 * The events in the agency's calendar of the address's bookings, owed a deletion
 * (calendar_deletions: the calendar sync deletes each, and tries again until the calendar
 * answers). A statement for the erasure's batch, before the bookings go. A booking without a
 * stored UID has the one its invitations carried (booking-<token>@<site host>).
 */
export const calendarEventsOwed = (db: D1Database, email: string, siteHost: string) =>
  db
    .prepare(
      `INSERT INTO calendar_deletions (uid)
       SELECT coalesce(uid, 'booking-' || token || '@' || ?2) FROM bookings
       WHERE email = ?1 AND calendar_state IS NOT NULL
       ON CONFLICT (uid) DO NOTHING`,
    )
    .bind(email, siteHost)

/**
 * The desk's log keeps what happened (a visitor's own cancel or move, a staff member's actions)
 * with `key`, the address's hash, where the address was: a statement for the erasure's batch.
 */
export const pseudonymiseAudit = (db: D1Database, email: string, key: string) =>
  db
    .prepare(
      `UPDATE desk_audit SET
         actor_email = CASE WHEN lower(actor_email) = ?1 THEN ?2 ELSE actor_email END,
         detail = replace(detail, ?1, ?2)
       WHERE lower(actor_email) = ?1 OR instr(detail, ?1) > 0`,
    )
    .bind(email, key)

/**
 * The DELETEs of an erasure, for one batch with the suppression that outlives them. A lead's
 * mark and note go with it (migrations/0032's triggers).
 */
export function eraseRows(db: D1Database, email: string) {
  return [
    db.prepare('DELETE FROM subscribers WHERE email = ?1').bind(email),
    db.prepare('DELETE FROM guide_requests WHERE email = ?1').bind(email),
    db.prepare('DELETE FROM contact_messages WHERE email = ?1').bind(email),
    db.prepare('DELETE FROM bookings WHERE email = ?1').bind(email),
    db.prepare('DELETE FROM booking_cancellations WHERE email = ?1').bind(email),
    db.prepare(`DELETE FROM mail_outbox WHERE ${MAILS_ABOUT}`).bind(email),
    // the webhooks' events keep their deliveries (the log), not the person: every delivery still
    // to come goes without the name, address or message
    db
      .prepare(
        `UPDATE webhook_events
         SET data = CASE WHEN json_valid(data) THEN json_set(data, '$.personal', json('{}')) ELSE '{}' END
         WHERE ${namesIn('data', '$.personal.email')}`,
      )
      .bind(email),
  ]
}

/** A link for this action went to this address a moment ago: one is enough. */
export async function recentDataRequest(
  db: D1Database,
  email: string,
  action: string,
  minutes: number,
) {
  return (
    (await db
      .prepare(
        `SELECT 1 AS hit FROM mail_outbox WHERE kind = 'data_request' AND to_address = ?
         AND json_extract(data, '$.action') = ? AND status NOT IN ('suppressed', 'held')
         AND created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)`,
      )
      .bind(email, action, `-${minutes} minutes`)
      .first()) !== null
  )
}

/** Unconfirmed sign-ups older than this many days are deleted by the daily clean-up. */
export const PENDING_SUBSCRIPTION_DAYS = 30

export const purgePendingSubscriptions = (db: D1Database) =>
  db
    .prepare(
      `DELETE FROM subscribers WHERE status = 'pending'
       AND consented_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)`,
    )
    .bind(`-${PENDING_SUBSCRIPTION_DAYS} days`)
