import type { Role } from '../roles'

/**
 * The desk's team in D1 (migrations/0034_desk_team.sql): the index of its members (their roles
 * live with the auth service, desk/members.ts) and the invitations, kept by their token's hash.
 */

export interface MemberRow {
  user_id: string
  email: string
  joined_at: string
  last_seen_at: string | null
}

export interface InvitationRow {
  id: number
  email: string
  role: Exclude<Role, 'owner'>
  language: string
  invited_by_email: string
  created_at: string
  sent_at: string
  expires_at: string
  accepted_at: string | null
  revoked_at: string | null
}

/** How long an invitation's link works after it was (last) sent. */
export const INVITATION_DAYS = 7

const iso = (ms: number) => new Date(ms).toISOString()

export const listMembers = async (db: D1Database) =>
  (
    await db
      .prepare(
        'SELECT user_id, email, joined_at, last_seen_at FROM desk_members ORDER BY joined_at',
      )
      .all<MemberRow>()
  ).results

export const addMember = (db: D1Database, userId: string, email: string) =>
  db
    .prepare(
      `INSERT INTO desk_members (user_id, email) VALUES (?, ?)
       ON CONFLICT (user_id) DO UPDATE SET email = excluded.email`,
    )
    .bind(userId, email)

export const removeMember = (db: D1Database, userId: string) =>
  db.prepare('DELETE FROM desk_members WHERE user_id = ?').bind(userId)

/** Last seen moves at most every five minutes: a desk click is not a write each time. */
const SEEN_EVERY_MS = 5 * 60_000

/**
 * A member's visit to the desk: indexed if they were not (a role set outside the desk, with a
 * hosted service's admin API), seen now, and, from a session the desk has not seen before, a
 * desk sign-in in the history. Written at most every five minutes per session by an isolate (the
 * statements would change nothing in between).
 */
export async function seeMember(
  db: D1Database,
  member: { id: string; email: string; sessionId: string },
  now = Date.now(),
) {
  // this isolate wrote it for this session less than five minutes ago: nothing would change
  const seen = lastSeen.get(member.id)
  if (seen && seen.sessionId === member.sessionId && now - seen.at < SEEN_EVERY_MS) return
  const at = iso(now)
  await db.batch([
    db
      .prepare(
        `INSERT INTO desk_audit (actor_id, actor_email, action, target, detail)
         SELECT ?1, ?2, 'desk.sign_in', NULL, '{}'
         WHERE NOT EXISTS (SELECT 1 FROM desk_members WHERE user_id = ?1 AND last_session_id IS ?3)`,
      )
      .bind(member.id, member.email, member.sessionId),
    db
      .prepare(
        `INSERT INTO desk_members (user_id, email, last_seen_at, last_session_id) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (user_id) DO UPDATE SET email = excluded.email,
           last_seen_at = excluded.last_seen_at, last_session_id = excluded.last_session_id
         WHERE desk_members.last_seen_at IS NULL OR desk_members.last_seen_at < ?5
           OR desk_members.last_session_id IS NOT excluded.last_session_id`,
      )
      .bind(member.id, member.email, at, member.sessionId, iso(now - SEEN_EVERY_MS)),
  ])
  if (lastSeen.size > 1000) lastSeen.clear()
  lastSeen.set(member.id, { sessionId: member.sessionId, at: now })
}

/** What this isolate last wrote for each member: a desk click is not a write each time. */
const lastSeen = new Map<string, { sessionId: string; at: number }>()

const INVITATION_COLUMNS = `id, email, role, language, invited_by_email, created_at, sent_at,
  expires_at, accepted_at, revoked_at`

/** Open invitations (expired ones too, marked by their date), newest first; and 20 closed. */
export async function listInvitations(db: D1Database) {
  const { results } = await db
    .prepare(
      `SELECT ${INVITATION_COLUMNS} FROM desk_invitations
       WHERE accepted_at IS NULL AND revoked_at IS NULL ORDER BY sent_at DESC LIMIT 200`,
    )
    .all<InvitationRow>()
  return results
}

export const findInvitation = (db: D1Database, id: number) =>
  db
    .prepare(`SELECT ${INVITATION_COLUMNS} FROM desk_invitations WHERE id = ?`)
    .bind(id)
    .first<InvitationRow>()

export const invitationByToken = (db: D1Database, tokenHash: string) =>
  db
    .prepare(`SELECT ${INVITATION_COLUMNS} FROM desk_invitations WHERE token_hash = ?`)
    .bind(tokenHash)
    .first<InvitationRow>()

/** The address's open invitation, if any (expired or not). */
export const openInvitationFor = (db: D1Database, email: string) =>
  db
    .prepare(
      `SELECT ${INVITATION_COLUMNS} FROM desk_invitations
       WHERE email = ? AND accepted_at IS NULL AND revoked_at IS NULL`,
    )
    .bind(email)
    .first<InvitationRow>()

/** A new invitation; its id, or null when the address has an open one already (a race). */
export const insertInvitation = (
  db: D1Database,
  i: { tokenHash: string; email: string; role: string; language: string },
  by: { id: string; email: string },
  now = Date.now(),
) =>
  db
    .prepare(
      `INSERT INTO desk_invitations (token_hash, email, role, language, invited_by_id,
         invited_by_email, created_at, sent_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
    )
    .bind(
      i.tokenHash,
      i.email,
      i.role,
      i.language,
      by.id,
      by.email,
      iso(now),
      iso(now),
      iso(now + INVITATION_DAYS * 86_400_000),
    )

/**
 * An open invitation sent again: a new token (the old link stops working at once), seven days
 * from now, the role and language as chosen this time, and who sent it (the e-mail names them).
 */
export const renewInvitation = (
  db: D1Database,
  id: number,
  i: { tokenHash: string; role: string; language: string },
  by: { id: string; email: string },
  now = Date.now(),
) =>
  db
    .prepare(
      `UPDATE desk_invitations SET token_hash = ?, role = ?, language = ?, invited_by_id = ?,
         invited_by_email = ?, sent_at = ?, expires_at = ?, expiry_logged = 0
       WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL RETURNING id`,
    )
    .bind(
      i.tokenHash,
      i.role,
      i.language,
      by.id,
      by.email,
      iso(now),
      iso(now + INVITATION_DAYS * 86_400_000),
      id,
    )

export const revokeInvitation = (db: D1Database, id: number, now = Date.now()) =>
  db
    .prepare(
      `UPDATE desk_invitations SET revoked_at = ?
       WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL RETURNING id`,
    )
    .bind(iso(now), id)

/**
 * Spends the invitation of this token: once, while open and in date. The row when it was this
 * call that spent it; null otherwise (used, revoked, expired, or another request first).
 */
export const spendInvitation = (
  db: D1Database,
  tokenHash: string,
  userId: string,
  now = Date.now(),
) =>
  db
    .prepare(
      `UPDATE desk_invitations SET accepted_at = ?, accepted_by = ?
       WHERE token_hash = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?
       RETURNING ${INVITATION_COLUMNS}`,
    )
    .bind(iso(now), userId, tokenHash, iso(now))
    .first<InvitationRow>()

/** Gives a spent invitation back (the account's role could not be set): it works again. */
export const unspendInvitation = (db: D1Database, id: number) =>
  db
    .prepare('UPDATE desk_invitations SET accepted_at = NULL, accepted_by = NULL WHERE id = ?')
    .bind(id)
    .run()

/**
 * The daily cron: each invitation that expired unused goes in the history once, as the site's
 * own action (no actor).
 */
export async function logExpiredInvitations(db: D1Database, now = Date.now()) {
  const at = iso(now)
  const [logged] = await db.batch([
    db
      .prepare(
        `INSERT INTO desk_audit (actor_id, actor_email, action, target, detail)
         SELECT '', '', 'team.invite_expire', 'invite/' || id,
           json_object('email', email, 'role', role)
         FROM desk_invitations
         WHERE accepted_at IS NULL AND revoked_at IS NULL AND expiry_logged = 0 AND expires_at <= ?`,
      )
      .bind(at),
    db
      .prepare(
        `UPDATE desk_invitations SET expiry_logged = 1
         WHERE accepted_at IS NULL AND revoked_at IS NULL AND expiry_logged = 0 AND expires_at <= ?`,
      )
      .bind(at),
  ])
  return logged.meta.changes
}
