import type * as v from 'valibot'
import type { ContactSchema, GuideSlug } from '../../client/schemas/leads'
import { insertRow } from './rows'

/**
 * The leads' INSERTs, as statements: services/leads.ts runs each in one D1 batch with the
 * e-mail that confirms it (a batch is one transaction: both or neither).
 */

export interface NewGuideRequest {
  email: string
  name: string
  guide: GuideSlug
  language: string
}

/**
 * The same address asking for the same guide again within this long is a repeat (a second tap,
 * a reload, the way back to a form's answer): nothing more is stored, nor e-mailed.
 */
export const REPEAT_GUIDE_MINUTES = 10
/** How long a request posted without the challenge waits to be completed with it. */
const WAITS_HOURS = 24

const ago = (ms: number) => new Date(Date.now() - ms).toISOString()
const MINE = 'email = ?1 AND guide = ?3'

/**
 * A request posted without the challenge (no JavaScript, or pressed before the page's scripts
 * came): added, marked `unchecked` (nothing was e-mailed), unless the address asked for this
 * guide a moment ago (its answer posted again).
 */
export function addUncheckedGuideRequest(db: D1Database, r: NewGuideRequest) {
  return db
    .prepare(
      `INSERT INTO guide_requests (email, name, guide, language, unchecked)
       SELECT ?1, ?2, ?3, ?4, 1
       WHERE NOT EXISTS (SELECT 1 FROM guide_requests WHERE ${MINE} AND created_at > ?5)`,
    )
    .bind(r.email, r.name, r.guide, r.language, ago(REPEAT_GUIDE_MINUTES * 60_000))
}

/**
 * A request that passed the challenge, as two statements for its batch: the first adds it,
 * marked for the moment, unless one of the address's for this guide waits (posted without the
 * challenge in the last day) or it is a repeat; the second takes over the newest waiting one
 * (that one, or the one just added) and returns it: its e-mail follows (`onlyIfInserted`). So a
 * request completed once its page's scripts ran is one row, not two, and a repeat returns no
 * row and sends nothing. The request's time becomes that of its completion.
 */
export function completeGuideRequest(db: D1Database, r: NewGuideRequest) {
  const waiting = `unchecked = 1 AND created_at > ?5`
  const repeat = `EXISTS (SELECT 1 FROM guide_requests WHERE ${MINE} AND unchecked = 0 AND created_at > ?6)`
  const since = [ago(WAITS_HOURS * 3600_000), ago(REPEAT_GUIDE_MINUTES * 60_000)]
  return [
    db
      .prepare(
        `INSERT INTO guide_requests (email, name, guide, language, unchecked)
         SELECT ?1, ?2, ?3, ?4, 1
         WHERE NOT EXISTS (SELECT 1 FROM guide_requests WHERE ${MINE} AND ${waiting})
           AND NOT ${repeat}`,
      )
      .bind(r.email, r.name, r.guide, r.language, ...since),
    db
      .prepare(
        `UPDATE guide_requests SET unchecked = 0, name = ?2, language = ?4, created_at = ?7
         WHERE id = (SELECT max(id) FROM guide_requests WHERE ${MINE} AND ${waiting})
           AND NOT ${repeat}
         RETURNING id`,
      )
      .bind(r.email, r.name, r.guide, r.language, ...since, new Date().toISOString()),
  ]
}

/** What became of the guide's e-mail to the address of a moment ago (a repeat's answer). */
export function lastGuideMail(db: D1Database, r: NewGuideRequest) {
  return db
    .prepare(
      `SELECT status FROM mail_outbox
       WHERE to_address = ?1 COLLATE NOCASE AND created_at > ?2 AND kind = 'guide'
         AND json_extract(data, '$.guide') = ?3
       ORDER BY id DESC LIMIT 1`,
    )
    .bind(r.email, ago(REPEAT_GUIDE_MINUTES * 60_000), r.guide)
}

/** A contact message as stored: the validated form (less its honeypot) and the page language. */
export type ContactMessage = Omit<v.InferOutput<typeof ContactSchema>, 'website'> & {
  language: string
}

export function insertContactMessage(db: D1Database, m: ContactMessage) {
  return insertRow(db, 'contact_messages', {
    ...m,
    company: m.company || null,
    budget: m.budget || null,
  })
}
