import type { Lang } from '../../client/lib/languages'

/**
 * Newsletter issues (migrations/0016_newsletters_in_the_desk.sql): written in the desk, one
 * subject and Markdown body per language; their e-mails are outbox rows with `newsletter_id`.
 */

export type IssueStatus = 'draft' | 'scheduled' | 'sending' | 'sent'

export interface IssueRow {
  id: number
  status: IssueStatus
  send_at: string | null
  site_url: string
  audience: number | null
  cursor: number
  written: number
  written_at: string | null
  pumped_at: string | null
  started_at: string | null
  finished_at: string | null
  version: number
  created_by: string
  updated_by: string
  created_at: string
  updated_at: string
}

export interface IssueText {
  subject: string
  body: string
  updated_at: string
}

export type FullIssue = IssueRow & { texts: Partial<Record<Lang, IssueText>> }

const now = () => new Date().toISOString()

export async function findIssue(db: D1Database, id: number): Promise<FullIssue | null> {
  const [issue, texts] = await db.batch([
    db.prepare('SELECT * FROM newsletter_issues WHERE id = ?').bind(id),
    db
      .prepare('SELECT lang, subject, body, updated_at FROM newsletter_texts WHERE issue_id = ?')
      .bind(id),
  ])
  const row = (issue.results as IssueRow[])[0]
  if (!row) return null
  const byLang = Object.fromEntries(
    (texts.results as (IssueText & { lang: Lang })[]).map(({ lang, ...text }) => [lang, text]),
  )
  return { ...row, texts: byLang }
}

/** The text a subscriber of `lang` reads: theirs, else the English one. */
export function textFor(db: D1Database, id: number, lang: string) {
  return db
    .prepare(
      `SELECT lang, subject, body FROM newsletter_texts
       WHERE issue_id = ? AND lang IN (?, 'en') ORDER BY lang = 'en' LIMIT 1`,
    )
    .bind(id, lang)
    .first<{ lang: Lang; subject: string; body: string }>()
}

export async function createIssue(db: D1Database, by: string, siteUrl: string) {
  const row = await db
    .prepare(
      `INSERT INTO newsletter_issues (created_by, updated_by, site_url) VALUES (?1, ?1, ?2)
       RETURNING id`,
    )
    .bind(by, siteUrl)
    .first<{ id: number }>()
  return row!.id
}

/**
 * One language's text, saved if the issue is still the version the editor started from and not
 * yet sending: the statements for one batch, the first returning the issue when it applied.
 */
export function saveText(
  db: D1Database,
  id: number,
  version: number,
  lang: Lang,
  text: { subject: string; body: string },
  by: string,
) {
  const at = now()
  return [
    db
      .prepare(
        `UPDATE newsletter_issues SET version = version + 1, updated_by = ?, updated_at = ?
         WHERE id = ? AND version = ? AND status IN ('draft', 'scheduled') RETURNING version`,
      )
      .bind(by, at, id, version),
    db
      .prepare(
        `INSERT INTO newsletter_texts (issue_id, lang, subject, body, updated_at)
         SELECT ?1, ?2, ?3, ?4, ?5 WHERE changes() > 0
         ON CONFLICT (issue_id, lang) DO UPDATE SET
           subject = excluded.subject, body = excluded.body, updated_at = excluded.updated_at`,
      )
      .bind(id, lang, text.subject, text.body, at),
  ]
}

/** A status change, only from the statuses named: null when the issue was not in one of them. */
export function moveIssue(
  db: D1Database,
  id: number,
  from: IssueStatus[],
  to: IssueStatus,
  by: string,
  fields: { send_at?: string | null; started_at?: string; audience?: number } = {},
) {
  const at = now()
  return db
    .prepare(
      `UPDATE newsletter_issues SET status = ?1, updated_by = ?2, updated_at = ?3,
         send_at = CASE WHEN ?4 THEN ?5 ELSE send_at END,
         started_at = coalesce(?6, started_at), pumped_at = CASE WHEN ?1 = 'sending' THEN ?3 ELSE pumped_at END
       WHERE id = ?7 AND status IN (SELECT value FROM json_each(?8)) RETURNING id`,
    )
    .bind(
      to,
      by,
      at,
      'send_at' in fields ? 1 : 0,
      fields.send_at ?? null,
      fields.started_at ?? null,
      id,
      JSON.stringify(from),
    )
}

export interface ListedIssue {
  id: number
  status: IssueStatus
  subject: string | null
  send_at: string | null
  started_at: string | null
  finished_at: string | null
  audience: number | null
  sent: number
  updated_at: string
  updated_by: string
}

export async function listIssues(db: D1Database, limit = 100) {
  const { results } = await db
    .prepare(
      `SELECT i.id, i.status, i.send_at, i.started_at, i.finished_at, i.audience, i.updated_at,
              i.updated_by, t.subject,
              (SELECT COUNT(*) FROM mail_outbox m
               WHERE m.newsletter_id = i.id AND m.status = 'sent') AS sent
       FROM newsletter_issues i
       LEFT JOIN newsletter_texts t ON t.issue_id = i.id AND t.lang = 'en'
       ORDER BY i.id DESC LIMIT ?`,
    )
    .bind(limit)
    .all<ListedIssue>()
  return results
}

/** The confirmed subscribers by language: who an issue sent now would reach. */
export async function audienceByLanguage(db: D1Database) {
  const { results } = await db
    .prepare(
      `SELECT language, COUNT(*) AS n FROM subscribers WHERE status = 'confirmed'
       GROUP BY language`,
    )
    .all<{ language: string; n: number }>()
  return Object.fromEntries(results.map((r) => [r.language, r.n])) as Partial<Record<Lang, number>>
}

export interface IssueRecord {
  queued: number
  sent: number
  failed: number
  suppressed: number
  bounced: number
  complained: number
  /** Subscribers of the issue who unsubscribed after it started. */
  unsubscribed: number
}

/** What became of an issue's e-mails, and the unsubscribes that followed it. */
export async function issueRecord(db: D1Database, id: number): Promise<IssueRecord> {
  const row = await db
    .prepare(
      `SELECT
         COUNT(*) FILTER (WHERE status IN ('queued', 'sending')) AS queued,
         COUNT(*) FILTER (WHERE status = 'sent') AS sent,
         COUNT(*) FILTER (WHERE status = 'failed' AND feedback IS NULL) AS failed,
         COUNT(*) FILTER (WHERE status = 'suppressed') AS suppressed,
         COUNT(*) FILTER (WHERE feedback = 'bounce') AS bounced,
         COUNT(*) FILTER (WHERE feedback = 'complaint') AS complained,
         (SELECT COUNT(*) FROM subscribers s
          JOIN newsletter_issues i ON i.id = ?1
          WHERE s.status = 'unsubscribed' AND s.unsubscribed_at >= i.started_at
            AND s.email IN (SELECT to_address FROM mail_outbox WHERE newsletter_id = ?1)
         ) AS unsubscribed
       FROM mail_outbox WHERE newsletter_id = ?1`,
    )
    .bind(id)
    .first<IssueRecord>()
  return row!
}

/** The issue's e-mails that failed, with their errors (the first `limit`). */
export async function failedMails(db: D1Database, id: number, limit = 50) {
  const { results } = await db
    .prepare(
      `SELECT id, to_address, language, attempts, last_error, updated_at FROM mail_outbox
       WHERE newsletter_id = ? AND status = 'failed' AND feedback IS NULL
       ORDER BY id LIMIT ?`,
    )
    .bind(id, limit)
    .all<{
      id: number
      to_address: string
      language: string
      attempts: number
      last_error: string | null
      updated_at: string
    }>()
  return results
}
