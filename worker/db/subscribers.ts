/**
 * The mailing list (migrations/0001 and 0010): double opt-in. A sign-up is `pending` until its
 * e-mailed link confirms it, `confirmed` after, `unsubscribed` once it asks to stop. Only
 * confirmed subscribers receive the newsletter; every marketing send also checks the
 * suppression list (db/outbox.ts).
 */

/** Version of the consent wording shown next to the signup forms; stored with each subscriber. */
export const CONSENT_VERSION = '2026-11-01'

export type SignupForm = 'welcome_popup' | 'guide' | 'newsletter'
export type SubscriberStatus = 'pending' | 'confirmed' | 'unsubscribed'

export interface NewSubscriber {
  email: string
  name: string | null
  source: string
  form: SignupForm
  language: string
}

/** A pending sign-up repeated after this long gets a fresh link (the first may be lost). */
export const RESEND_CONFIRMATION_AFTER_MINUTES = 10

const now = () => new Date().toISOString()

/** What the list held for an address before a sign-up: read in the sign-up's own batch. */
export const statusOf = (db: D1Database, email: string) =>
  db.prepare('SELECT status, unchecked FROM subscribers WHERE email = ?').bind(email)

/** A checked sign-up of an address the list holds: `?9` is the oldest link not yet renewed. */
const RENEW = `DO UPDATE SET
         name = coalesce(excluded.name, subscribers.name),
         source = excluded.source,
         signup_form = excluded.signup_form,
         language = excluded.language,
         consent_version = excluded.consent_version,
         status = 'pending',
         consented_at = excluded.consented_at,
         confirm_nonce = excluded.confirm_nonce,
         unchecked = excluded.unchecked,
         confirmed_at = NULL,
         confirm_ip_hash = NULL,
         unsubscribed_at = NULL
       WHERE subscribers.status = 'unsubscribed'
          OR (subscribers.status = 'pending'
              AND (subscribers.consented_at < ?9 OR subscribers.unchecked = 1))`

/**
 * A sign-up, as one statement (so concurrent sign-ups of one address keep one row): a new
 * address becomes pending with this link's nonce. A sign-up that passed the challenge also
 * renews an unsubscribed address (a new opt-in), a pending one whose last link is older than
 * RESEND_CONFIRMATION_AFTER_MINUTES, and one kept from a post without the challenge (never
 * e-mailed). Anything else (confirmed, or pending since a moment ago) stays as it is and
 * returns no row: the mail statement after it in the batch (`onlyIfInserted`) is then not
 * written either. A sign-up without the challenge (`checked` false) only adds: an address the
 * list holds, in whatever state, stays exactly as it is (its e-mailed link keeps working).
 */
export function signUp(db: D1Database, s: NewSubscriber, nonce: string, checked = true) {
  const resendBefore = new Date(
    Date.now() - RESEND_CONFIRMATION_AFTER_MINUTES * 60_000,
  ).toISOString()
  return db
    .prepare(
      `INSERT INTO subscribers
         (email, name, source, signup_form, language, consent_version, status, consented_at,
          confirm_nonce, unchecked)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'pending', ?7, ?8, ?10)
       ON CONFLICT (email) ${checked ? RENEW : 'DO NOTHING'}
       RETURNING id`,
    )
    .bind(
      s.email,
      s.name,
      s.source,
      s.form,
      s.language,
      CONSENT_VERSION,
      now(),
      nonce,
      resendBefore,
      checked ? 0 : 1,
    )
}

/** A link's nonce still waiting to be spent (a guide e-mail asks to confirm only then). */
export async function isOpenNonce(db: D1Database, nonce: string) {
  return (
    (await db
      .prepare("SELECT 1 AS open FROM subscribers WHERE confirm_nonce = ? AND status = 'pending'")
      .bind(nonce)
      .first()) !== null
  )
}

/**
 * Spends a confirmation link: the pending subscription with that nonce becomes confirmed, with
 * the time and the IP's hash. The conditional UPDATE is the one place a nonce is spent, so a
 * link works once, even clicked twice at once. The subscriber, or null.
 */
export function confirmSubscriber(db: D1Database, nonce: string, ipHash: string) {
  return db
    .prepare(
      `UPDATE subscribers
       SET status = 'confirmed', confirmed_at = ?, confirm_ip_hash = ?, confirm_nonce = NULL
       WHERE confirm_nonce = ? AND status = 'pending'
       RETURNING id, email, name, language`,
    )
    .bind(now(), ipHash, nonce)
}

/** Ends a subscription (any state); the address's hash goes on the suppression list with it. */
export function unsubscribeAddress(db: D1Database, email: string) {
  return db
    .prepare(
      `UPDATE subscribers
       SET status = 'unsubscribed', unsubscribed_at = coalesce(unsubscribed_at, ?),
           confirm_nonce = NULL
       WHERE email = ?
       RETURNING id`,
    )
    .bind(now(), email)
}
