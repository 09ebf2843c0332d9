/** Who reads it and why: marketing mail obeys the suppression list and carries List-Unsubscribe. */
export type MailCategory = 'transactional' | 'marketing' | 'agency'

/** One e-mail of the outbox (migrations/0009_rebuild_outbox_for_delivery.sql). */
export interface OutboxRow {
  id: number
  kind: string
  data: string
  category: MailCategory
  language: string
  to_address: string
  site_url: string
  subject: string
  body_text: string | null
  status: 'queued' | 'sending' | 'sent' | 'failed' | 'suppressed' | 'held'
  attempts: number
  provider: string | null
  provider_message_id: string | null
  last_error: string | null
  created_at: string
  updated_at: string
  sent_at: string | null
  /** Why a form's e-mail waits for the agency ('surge') or was not sent ('address_ceiling'). */
  hold_reason: HoldReason | null
  /** Sent by a form to an address that had never confirmed (what the ceilings count). */
  unconfirmed: number
}

export type HoldReason = 'surge' | 'address_ceiling'

/**
 * The ceilings on e-mails a form sends to an address nobody has confirmed (docs/bots.md): so
 * many a day to one address, after which they are not sent, and so many an hour site-wide,
 * after which they wait in the outbox ('held') until the agency sends or drops them.
 */
export interface MailCeilings {
  perAddressPerDay: number
  siteWidePerHour: number
}

export interface NewMail {
  kind: string
  data: unknown
  category: MailCategory
  language: string
  to: string
  siteUrl: string
  subject: string
}

const now = () => new Date().toISOString()

/**
 * The INSERT of one e-mail, for the same D1 batch as the row it confirms (a batch is one
 * transaction: both or neither). `onlyIfInserted`: only when the statement before it in the
 * batch changed a row (a subscriber new to the list), so a repeat sign-up sends nothing.
 */
export function insertMail(
  db: D1Database,
  mail: NewMail,
  onlyIfInserted = false,
  ceilings?: MailCeilings,
) {
  const values = [
    mail.kind,
    JSON.stringify(mail.data),
    mail.category,
    mail.language,
    mail.to,
    mail.siteUrl,
    mail.subject,
  ]
  const onlyIf = onlyIfInserted ? 'WHERE changes() > 0' : ''
  if (!ceilings)
    return db
      .prepare(
        `INSERT INTO mail_outbox (kind, data, category, language, to_address, site_url, subject)
         SELECT ?, ?, ?, ?, ?, ?, ? ${onlyIf}
         RETURNING id, status`,
      )
      .bind(...values)
  // Confirmed: a subscriber who followed the link, or an account whose address is confirmed.
  // Otherwise the address's day and the site's hour are counted (`unconfirmed` rows only).
  const day = new Date(Date.now() - 24 * 3600_000).toISOString()
  const hour = new Date(Date.now() - 3600_000).toISOString()
  return db
    .prepare(
      `INSERT INTO mail_outbox
         (kind, data, category, language, to_address, site_url, subject, unconfirmed, status,
          hold_reason)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, g.unconfirmed,
         CASE g.hold WHEN 'address_ceiling' THEN 'suppressed' WHEN 'surge' THEN 'held'
           ELSE 'queued' END,
         g.hold
       FROM (
         SELECT u.unconfirmed, CASE
           WHEN u.unconfirmed = 0 THEN NULL
           WHEN (SELECT count(*) FROM mail_outbox WHERE to_address = ?5 COLLATE NOCASE
                   AND unconfirmed = 1 AND created_at > ?8 AND status != 'suppressed') >= ?9
             THEN 'address_ceiling'
           WHEN (SELECT count(*) FROM mail_outbox WHERE unconfirmed = 1 AND created_at > ?10
                   AND status != 'suppressed') >= ?11
             THEN 'surge'
           END AS hold
         FROM (SELECT NOT (
           EXISTS (SELECT 1 FROM subscribers
                   WHERE email = ?5 COLLATE NOCASE AND status = 'confirmed')
           OR EXISTS (SELECT 1 FROM auth_users
                      WHERE email = ?5 COLLATE NOCASE AND email_confirmed_at IS NOT NULL)
         ) AS unconfirmed) u
       ) g
       ${onlyIf}
       RETURNING id, status`,
    )
    .bind(...values, day, ceilings.perAddressPerDay, hour, ceilings.siteWidePerHour)
}

/** Takes a queued e-mail for sending; null when another delivery has it, or it is done. */
export function claimMail(db: D1Database, id: number) {
  return db
    .prepare(
      `UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, updated_at = ?
       WHERE id = ? AND status = 'queued' RETURNING *`,
    )
    .bind(now(), id)
    .first<OutboxRow>()
}

/** `forget`: the row's data held a one-time secret, and is emptied now that it is done with. */
export async function markSent(
  db: D1Database,
  id: number,
  provider: string,
  messageId: string,
  forget = false,
) {
  const at = now()
  await db
    .prepare(
      `UPDATE mail_outbox SET status = 'sent', provider = ?, provider_message_id = ?,
       last_error = NULL, sent_at = ?, updated_at = ?, data = CASE WHEN ? THEN '{}' ELSE data END
       WHERE id = ?`,
    )
    .bind(provider, messageId, at, at, forget ? 1 : 0, id)
    .run()
}

/** Back in the queue after a failure that may pass (a 5xx, a 429, a time-out). */
export async function markRetry(db: D1Database, id: number, provider: string, error: string) {
  await db
    .prepare(
      `UPDATE mail_outbox SET status = 'queued', provider = ?, last_error = ?, updated_at = ?
       WHERE id = ? AND status = 'sending'`,
    )
    .bind(provider, error.slice(0, 500), now(), id)
    .run()
}

/** Back in the queue without counting the attempt: the provider asked us to wait (429, pace). */
export async function unclaimMail(db: D1Database, id: number, error: string | null) {
  await db
    .prepare(
      `UPDATE mail_outbox SET status = 'queued', attempts = max(attempts - 1, 0),
       last_error = coalesce(?, last_error), updated_at = ?
       WHERE id = ? AND status = 'sending'`,
    )
    .bind(error?.slice(0, 500) ?? null, now(), id)
    .run()
}

export async function markFailed(db: D1Database, id: number, error: string, forget = false) {
  await db
    .prepare(
      `UPDATE mail_outbox SET status = 'failed', last_error = ?, updated_at = ?,
       data = CASE WHEN ? OR substr(kind, 1, 5) = 'auth_' THEN '{}' ELSE data END
       WHERE id = ? AND status IN ('queued', 'sending')`,
    )
    .bind(error.slice(0, 500), now(), forget ? 1 : 0, id)
    .run()
}

export async function markSuppressed(db: D1Database, id: number) {
  await db
    .prepare(
      `UPDATE mail_outbox SET status = 'suppressed', updated_at = ? WHERE id = ? AND status = 'sending'`,
    )
    .bind(now(), id)
    .run()
}

/**
 * E-mails left behind: queued longer than `queuedBefore` (their queue message was lost) or
 * stuck sending since `sendingBefore` (a delivery that died). Stuck ones are queued again;
 * the ids of all of them go back on the queue.
 */
export async function staleMail(db: D1Database, queuedBefore: string, sendingBefore: string) {
  const [stuck, stale] = await db.batch<{ id: number }>([
    db
      .prepare(
        `UPDATE mail_outbox SET status = 'queued', updated_at = ?
         WHERE status = 'sending' AND updated_at < ? AND newsletter_id IS NULL RETURNING id`,
      )
      .bind(now(), sendingBefore),
    db
      .prepare(
        `SELECT id FROM mail_outbox
         WHERE status = 'queued' AND updated_at < ? AND newsletter_id IS NULL
         ORDER BY id LIMIT 500`,
      )
      .bind(queuedBefore),
  ])
  return [...stuck.results, ...stale.results].map((r) => r.id)
}

export async function isSuppressed(db: D1Database, emailHash: string) {
  return (
    (await db
      .prepare('SELECT 1 AS hit FROM mail_suppressions WHERE email_hash = ?')
      .bind(emailHash)
      .first()) !== null
  )
}

export type SuppressionReason = 'bounce' | 'complaint' | 'unsubscribe' | 'erasure'

/** An address's hash on the suppression list (an earlier reason stays). */
export const suppression = (db: D1Database, emailHash: string, reason: SuppressionReason) =>
  db
    .prepare(
      'INSERT INTO mail_suppressions (email_hash, reason) VALUES (?, ?) ON CONFLICT DO NOTHING',
    )
    .bind(emailHash, reason)

export async function suppress(db: D1Database, emailHash: string, reason: SuppressionReason) {
  await suppression(db, emailHash, reason).run()
}

/** A confirmed opt-in is new consent: the address may hear from us again. */
export const liftSuppression = (db: D1Database, emailHash: string) =>
  db.prepare('DELETE FROM mail_suppressions WHERE email_hash = ?').bind(emailHash)

/** The most recent e-mail of a kind (the daily digest starts where the last one ended). */
export function lastMailOf(db: D1Database, kind: string) {
  return db
    .prepare('SELECT * FROM mail_outbox WHERE kind = ? ORDER BY id DESC LIMIT 1')
    .bind(kind)
    .first<OutboxRow>()
}

/** A sent e-mail the provider reports bounced or complained of. */
export async function markBounced(
  db: D1Database,
  providerMessageId: string,
  feedback: 'bounce' | 'complaint',
  error: string,
) {
  await db
    .prepare(
      `UPDATE mail_outbox SET status = 'failed', feedback = ?, last_error = ?, updated_at = ?
       WHERE provider_message_id = ?`,
    )
    .bind(feedback, error, now(), providerMessageId)
    .run()
}
