import { sha256Hex } from '../hash'

export interface UserRow {
  id: string
  email: string
  password_hash: string
  user_metadata: string
  /** Set by the admin only (`npm run staff`): {"role": "owner" | "admin" | "editor" | "sales" | "writer"} for staff (worker/roles.ts). */
  app_metadata: string
  email_confirmed_at: string | null
  /** A new address waiting for its links to be used (GoTrue's email_change); null when none. */
  email_change: string | null
  email_change_sent_at: string | null
  /** How many of the change's links were used so far: 0, or 1 of the two of a secure change. */
  email_change_confirm_status: number
  last_sign_in_at: string | null
  created_at: string
  updated_at: string
}

const now = () => new Date().toISOString()

export const findUserByEmail = (db: D1Database, email: string) =>
  db.prepare('SELECT * FROM auth_users WHERE email = ?').bind(email).first<UserRow>()

export const findUser = (db: D1Database, id: string) =>
  db.prepare('SELECT * FROM auth_users WHERE id = ?').bind(id).first<UserRow>()

/** Creates the user unless the e-mail exists; null when it does. */
export async function createUser(
  db: D1Database,
  u: { email: string; passwordHash: string; metadata: object; confirmed?: boolean },
) {
  const id = crypto.randomUUID()
  const at = now()
  const confirmedAt = u.confirmed === false ? null : at
  const row = await db
    .prepare(
      `INSERT INTO auth_users (id, email, password_hash, user_metadata, email_confirmed_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING *`,
    )
    .bind(id, u.email, u.passwordHash, JSON.stringify(u.metadata), confirmedAt, at, at)
    .first<UserRow>()
  return row
}

/** Following an e-mailed link proves the address: it is confirmed from then on. */
export async function confirmEmail(db: D1Database, userId: string) {
  await db
    .prepare(
      'UPDATE auth_users SET email_confirmed_at = ? WHERE id = ? AND email_confirmed_at IS NULL',
    )
    .bind(now(), userId)
    .run()
}

/**
 * Changes the user's password hash or metadata. The address is never changed here: only
 * confirmEmailChange does that, once the new address is proven.
 */
export async function updateUser(
  db: D1Database,
  id: string,
  changes: { passwordHash?: string; metadata?: object },
) {
  const sets: string[] = []
  const values: unknown[] = []
  const set = (column: string, value: unknown) => {
    sets.push(`${column} = ?`)
    values.push(value)
  }
  if (changes.passwordHash) set('password_hash', changes.passwordHash)
  if (changes.metadata) set('user_metadata', JSON.stringify(changes.metadata))
  sets.push('updated_at = ?')
  values.push(now())
  return db
    .prepare(`UPDATE auth_users SET ${sets.join(', ')} WHERE id = ? RETURNING *`)
    .bind(...values, id)
    .first<UserRow>()
}

/**
 * Merges into the user's app_metadata as GoTrue's admin update does: each key set, a null one
 * removed. Throws when the database refuses it (a second Owner: migrations/0033).
 */
export async function setAppMetadata(db: D1Database, id: string, changes: Record<string, unknown>) {
  let sql = 'app_metadata'
  const values: unknown[] = []
  for (const [key, value] of Object.entries(changes)) {
    const path = `$.${JSON.stringify(key)}`
    if (value === null) {
      sql = `json_remove(${sql}, ?)`
      values.push(path)
    } else {
      sql = `json_set(${sql}, ?, json(?))`
      values.push(path, JSON.stringify(value))
    }
  }
  return db
    .prepare(`UPDATE auth_users SET app_metadata = ${sql}, updated_at = ? WHERE id = ? RETURNING *`)
    .bind(...values, now(), id)
    .first<UserRow>()
}

/**
 * A desk role changed (or, with null, removed) only if the account still has the role the
 * change was decided on: two tabs, or two Admins, never act on a role that moved meanwhile.
 * Whether it was changed.
 */
export async function setRoleIf(db: D1Database, id: string, expected: string, next: string | null) {
  const value =
    next === null ? "json_remove(app_metadata, '$.role')" : "json_set(app_metadata, '$.role', ?3)"
  const { meta } = await db
    .prepare(
      `UPDATE auth_users SET app_metadata = ${value}, updated_at = ?4
       WHERE id = ?1 AND json_extract(app_metadata, '$.role') = ?2`,
    )
    .bind(id, expected, next, now())
    .run()
  return meta.changes === 1
}

/**
 * Ownership handed from the Owner to an Admin, in one transaction: the Owner demoted, the Admin
 * promoted, each only from the role expected; if either did not hold, the last statement fails
 * and the batch is undone (never no Owner, never two). Whether it was done.
 */
export async function swapOwner(db: D1Database, from: string, to: string) {
  const role = "json_extract(app_metadata, '$.role')"
  try {
    await db.batch([
      db
        .prepare(
          `UPDATE auth_users SET app_metadata = json_set(app_metadata, '$.role', 'admin'), updated_at = ?2
           WHERE id = ?1 AND ${role} = 'owner'`,
        )
        .bind(from, now()),
      db
        .prepare(
          `UPDATE auth_users SET app_metadata = json_set(app_metadata, '$.role', 'owner'), updated_at = ?3
           WHERE id = ?2 AND ${role} = 'admin'
             AND (SELECT ${role} FROM auth_users WHERE id = ?1) = 'admin'`,
        )
        .bind(from, to, now()),
      // a malformed JSON fails the statement, and with it the batch, unless the swap held
      db
        .prepare(
          `SELECT json('{') WHERE NOT EXISTS (SELECT 1 FROM auth_users WHERE id = ?1 AND ${role} = 'owner')`,
        )
        .bind(to),
    ])
    return true
  } catch (err) {
    if (String(err).includes('malformed JSON')) return false
    throw err
  }
}

const randomToken = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

export interface SessionRow {
  id: string
  user_id: string
  created_at: string
  aal: 'aal1' | 'aal2'
  /** authentication methods, oldest first: "password", "password,totp", "otp" */
  amr: string
  factor_id: string | null
  revoked_at: string | null
}

/** A new session (signed in with `method`) with its first refresh token. */
export async function createSession(db: D1Database, userId: string, method = 'password') {
  const sessionId = crypto.randomUUID()
  const token = randomToken()
  const createdAt = now()
  await db.batch([
    db
      .prepare('INSERT INTO auth_sessions (id, user_id, amr, created_at) VALUES (?, ?, ?, ?)')
      .bind(sessionId, userId, method, createdAt),
    db
      .prepare('INSERT INTO auth_refresh_tokens (token, session_id) VALUES (?, ?)')
      .bind(token, sessionId),
    db.prepare('UPDATE auth_users SET last_sign_in_at = ? WHERE id = ?').bind(now(), userId),
  ])
  return {
    session: { id: sessionId, aal: 'aal1', amr: method, created_at: createdAt } as const,
    refreshToken: token,
  }
}

/** When a session started `maxAgeSeconds` ago ends (GoTrue's sessions timebox), in ms. */
export const sessionEnd = (session: Pick<SessionRow, 'created_at'>, maxAgeSeconds: number) =>
  Date.parse(session.created_at) + maxAgeSeconds * 1000

/** Whether the session has outlived its maximum age. */
export const sessionExpired = (session: Pick<SessionRow, 'created_at'>, maxAgeSeconds: number) =>
  Date.now() >= sessionEnd(session, maxAgeSeconds)

export type Rotation =
  | { ok: true; session: SessionRow; refreshToken: string }
  | { ok: false; reason: 'not_found' | 'reused' | 'revoked' | 'expired' }

/**
 * Exchanges a refresh token for its successor. Spending it and inserting the successor are one
 * D1 batch (one transaction, run one at a time), so of two uses at once exactly one spends it.
 * A token spent less than `reuseSeconds` ago (GoTrue's reuse interval) answers with the
 * session's current token instead: clients that refresh at once, or lost the answer, go on.
 * Later, a second use of a spent token means a replay and ends the session.
 */
export async function rotateRefreshToken(
  db: D1Database,
  token: string,
  reuseSeconds: number,
  maxAgeSeconds: number,
): Promise<Rotation> {
  const row = await db
    .prepare(
      `SELECT t.revoked, s.id AS session_id, s.*
       FROM auth_refresh_tokens t JOIN auth_sessions s ON s.id = t.session_id WHERE t.token = ?`,
    )
    .bind(token)
    .first<SessionRow & { revoked: number; session_id: string }>()
  if (!row) return { ok: false, reason: 'not_found' }
  if (row.revoked_at) return { ok: false, reason: 'revoked' }
  const { revoked: _, session_id: __, ...session } = row
  // past its maximum age a session ends, however recently it was refreshed
  if (sessionExpired(session, maxAgeSeconds)) {
    await revokeSession(db, session.id)
    return { ok: false, reason: 'expired' }
  }
  const next = randomToken()
  const [spent] = await db.batch([
    // the successor, only while its parent is unspent …
    db
      .prepare(
        `INSERT INTO auth_refresh_tokens (token, session_id, parent)
         SELECT ?, session_id, token FROM auth_refresh_tokens WHERE token = ? AND revoked = 0`,
      )
      .bind(next, token),
    // … and the parent spent, in the same transaction
    db.prepare('UPDATE auth_refresh_tokens SET revoked = 1 WHERE token = ?').bind(token),
  ])
  if (spent.meta.changes === 1) {
    await db
      .prepare('UPDATE auth_sessions SET refreshed_at = ? WHERE id = ?')
      .bind(now(), session.id)
      .run()
    return { ok: true, session, refreshToken: next }
  }
  // Spent already: when (its successor's birth), and the session's live token now.
  const current = await db
    .prepare(
      `SELECT t.token FROM auth_refresh_tokens t
       WHERE t.session_id = ? AND t.revoked = 0
         AND EXISTS (SELECT 1 FROM auth_refresh_tokens c WHERE c.parent = ?
           AND c.created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?))
       ORDER BY t.created_at DESC LIMIT 1`,
    )
    .bind(session.id, token, `-${reuseSeconds} seconds`)
    .first<{ token: string }>()
  if (current && reuseSeconds > 0) return { ok: true, session, refreshToken: current.token }
  await revokeSession(db, session.id)
  return { ok: false, reason: 'reused' }
}

export const findSession = (db: D1Database, id: string) =>
  db.prepare('SELECT * FROM auth_sessions WHERE id = ?').bind(id).first<SessionRow>()

/**
 * The user of a live session, in one read by primary keys: what GET /user confirms of a token
 * (its session neither revoked nor another user's, gotrue.ts authenticate), less the factors.
 */
export const findSessionUser = (
  db: D1Database,
  sessionId: string,
  userId: string,
  maxAgeSeconds: number,
) =>
  db
    .prepare(
      `SELECT u.id, u.email, u.app_metadata FROM auth_sessions s JOIN auth_users u ON u.id = s.user_id
       WHERE s.id = ? AND s.user_id = ? AND s.revoked_at IS NULL
         AND s.created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)`,
    )
    .bind(sessionId, userId, `-${maxAgeSeconds} seconds`)
    .first<Pick<UserRow, 'id' | 'email' | 'app_metadata'>>()

export async function revokeSession(db: D1Database, id: string) {
  await db.batch([
    db
      .prepare('UPDATE auth_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .bind(now(), id),
    db.prepare('UPDATE auth_refresh_tokens SET revoked = 1 WHERE session_id = ?').bind(id),
  ])
}

/** Sign out: this session (local), all of the user's (global), or all but this one (others). */
export async function revokeSessions(
  db: D1Database,
  userId: string,
  current: string,
  scope: 'global' | 'local' | 'others',
) {
  const where =
    scope === 'local' ? 'id = ?' : scope === 'others' ? 'user_id = ? AND id != ?' : 'user_id = ?'
  const params = scope === 'local' ? [current] : scope === 'others' ? [userId, current] : [userId]
  await db.batch(revokeStatements(db, where, params))
}

/** Ending the sessions `where` selects, with every refresh token of theirs: two statements. */
const revokeStatements = (db: D1Database, where: string, params: unknown[]) => [
  db
    .prepare(
      `UPDATE auth_refresh_tokens SET revoked = 1 WHERE revoked = 0
       AND session_id IN (SELECT id FROM auth_sessions WHERE ${where} AND revoked_at IS NULL)`,
    )
    .bind(...params),
  db
    .prepare(`UPDATE auth_sessions SET revoked_at = ? WHERE ${where} AND revoked_at IS NULL`)
    .bind(now(), ...params),
]

/**
 * A new password, as GoTrue's UpdatePassword sets it: in one batch with every other session
 * ended (all of them when `keepSession` is null: a reset from a link), every unused e-mailed
 * link and code spent, and a pending change of address dropped (its links are spent with them).
 */
export async function setPassword(
  db: D1Database,
  userId: string,
  passwordHash: string,
  keepSession: string | null,
) {
  const [where, params] = keepSession
    ? ['user_id = ? AND id != ?', [userId, keepSession]]
    : ['user_id = ?', [userId]]
  const results = await db.batch([
    ...revokeStatements(db, where, params),
    db
      .prepare(
        `UPDATE auth_one_time_tokens SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE user_id = ? AND used_at IS NULL`,
      )
      .bind(userId),
    db
      .prepare(
        `UPDATE auth_users SET password_hash = ?, email_change = NULL, email_change_sent_at = NULL,
           email_change_confirm_status = 0, updated_at = ? WHERE id = ? RETURNING *`,
      )
      .bind(passwordHash, now(), userId),
  ])
  return (results.at(-1)!.results[0] as UserRow | undefined) ?? null
}

/** The current window of `seconds` failed attempts count in (auth_failures.window_start). */
const windowOf = (seconds: number) => Math.floor(Date.now() / 1000 / Math.max(1, seconds))

/** Counts a failed attempt against each key (a pair, an IP, an address, a factor). */
export async function countFailure(db: D1Database, keys: string[], windowSeconds: number) {
  const window = windowOf(windowSeconds)
  await db.batch(
    keys.map((key) =>
      db
        .prepare(
          `INSERT INTO auth_failures (key, window_start, count) VALUES (?, ?, 1)
           ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1`,
        )
        .bind(key, window),
    ),
  )
}

/** Each key's failed attempts in the current window (0 for a key without any). */
export async function failureCounts(db: D1Database, keys: string[], windowSeconds: number) {
  const { results } = await db
    .prepare(
      `SELECT key, count FROM auth_failures WHERE window_start = ? AND key IN (${keys.map(() => '?').join(',')})`,
    )
    .bind(windowOf(windowSeconds), ...keys)
    .all<{ key: string; count: number }>()
  const counts = new Map(results.map((r) => [r.key, r.count]))
  return keys.map((key) => counts.get(key) ?? 0)
}

/** The most failed attempts of any of the keys in the current window. */
export const failureCount = async (db: D1Database, keys: string[], windowSeconds: number) =>
  Math.max(0, ...(await failureCounts(db, keys, windowSeconds)))

export { sha256Hex }

/** An e-mailed link's secret: 48 random bytes, URL-safe. */
const linkToken = () => randomToken() + randomToken()

/** A new one-time token for the user; the caller e-mails it, D1 keeps only its hash. */
/**
 * What else a new token or code needs in its batch (a PKCE flow), ending with the e-mail that
 * carries it: all of it or none.
 */
export type MailOf = (secret: { token: string; code?: string }) => Promise<D1PreparedStatement[]>

/** Runs a token's statements with what `mail` adds after them; the outbox ids it inserted. */
async function withMail(
  db: D1Database,
  statements: D1PreparedStatement[],
  mail: MailOf | undefined,
  secret: { token: string; code?: string },
) {
  if (!mail) {
    await db.batch(statements)
    return []
  }
  statements.push(...(await mail(secret)))
  const results = await db.batch(statements)
  return ((results.at(-1)?.results ?? []) as { id: number }[]).map((r) => r.id)
}

export async function createOneTimeToken(
  db: D1Database,
  userId: string,
  type: 'recovery' | 'signup',
  mail?: MailOf,
) {
  const token = linkToken()
  const statements = [
    db
      .prepare('INSERT INTO auth_one_time_tokens (token_hash, user_id, type) VALUES (?, ?, ?)')
      .bind(await sha256Hex(token), userId, type),
  ]
  return { token, mailIds: await withMail(db, statements, mail, { token }) }
}

/**
 * Spends a one-time token of one of the types (once, within an hour): the user it belongs to
 * and the address it was sent to (kept for `email_change` tokens), or null.
 */
export async function useOneTimeToken(
  db: D1Database,
  token: string,
  types: readonly OneTimeTokenType[],
) {
  return db
    .prepare(
      `UPDATE auth_one_time_tokens SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE token_hash = ? AND type IN (${types.map(() => '?').join(',')}) AND used_at IS NULL
         AND created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour')
       RETURNING user_id, relates_to`,
    )
    .bind(await sha256Hex(token), ...types)
    .first<{ user_id: string; relates_to: string | null }>()
}

/**
 * GoTrue's sendEmailChange: the new address waits in `email_change`, with a link sent to it and
 * (`secure`) another sent to the current address; the change's earlier links are spent. `mail`
 * writes the e-mails, in the same batch: all of it or none. The outbox ids.
 */
export async function requestEmailChange(
  db: D1Database,
  user: Pick<UserRow, 'id' | 'email'>,
  newEmail: string,
  secure: boolean,
  mail: (tokens: { toNew: string; toCurrent: string | null }) => Promise<D1PreparedStatement[]>,
) {
  const toNew = linkToken()
  const toCurrent = secure ? linkToken() : null
  const insert = async (token: string, address: string) =>
    db
      .prepare(
        `INSERT INTO auth_one_time_tokens (token_hash, user_id, type, relates_to)
         VALUES (?, ?, 'email_change', ?)`,
      )
      .bind(await sha256Hex(token), user.id, address)
  const statements = [
    db
      .prepare(
        `UPDATE auth_one_time_tokens SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE user_id = ? AND type = 'email_change' AND used_at IS NULL`,
      )
      .bind(user.id),
    await insert(toNew, newEmail),
    ...(toCurrent ? [await insert(toCurrent, user.email)] : []),
    db
      .prepare(
        `UPDATE auth_users SET email_change = ?, email_change_sent_at = ?,
           email_change_confirm_status = 0, updated_at = ? WHERE id = ?`,
      )
      .bind(newEmail, now(), now(), user.id),
  ]
  const mails = await mail({ toNew, toCurrent })
  const results = await db.batch([...statements, ...mails])
  return results
    .slice(statements.length)
    .flatMap((r) => (r.results as { id: number }[]).map((row) => row.id))
}

/**
 * The first of a secure change's two links: counted, unless the other was counted meanwhile.
 * True when this was the first (the change waits for the other link), false when it is due now.
 */
export async function countFirstConfirmation(db: D1Database, userId: string) {
  const first = await db
    .prepare(
      `UPDATE auth_users SET email_change_confirm_status = 1
       WHERE id = ? AND email_change IS NOT NULL AND email_change_confirm_status = 0`,
    )
    .bind(userId)
    .run()
  return first.meta.changes === 1
}

/**
 * The change of address, once proven (GoTrue's ConfirmEmailChange): `email` becomes the pending
 * address, which is confirmed from then on, and every unused link and code of the user is spent.
 * Null when the pending address is no longer `newEmail`, or another account has it meanwhile.
 */
export async function confirmEmailChange(db: D1Database, userId: string, newEmail: string) {
  const [changed] = await db.batch([
    db
      .prepare(
        `UPDATE auth_users SET email = email_change, email_change = NULL,
           email_change_sent_at = NULL, email_change_confirm_status = 0,
           email_confirmed_at = COALESCE(email_confirmed_at, ?1), updated_at = ?1
         WHERE id = ?2 AND email_change = ?3
           AND NOT EXISTS (SELECT 1 FROM auth_users o WHERE o.email = ?3)
         RETURNING *`,
      )
      .bind(now(), userId, newEmail),
    db
      .prepare(
        `UPDATE auth_one_time_tokens SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE user_id = ?1 AND used_at IS NULL
           AND EXISTS (SELECT 1 FROM auth_users WHERE id = ?1 AND email = ?2)`,
      )
      .bind(userId, newEmail),
  ])
  return (changed.results[0] as UserRow | undefined) ?? null
}

export interface FactorRow {
  id: string
  user_id: string
  friendly_name: string | null
  factor_type: 'totp'
  status: 'unverified' | 'verified'
  secret: string
  last_step: number | null
  created_at: string
  updated_at: string
}

export const listFactors = async (db: D1Database, userId: string) =>
  (
    await db
      .prepare('SELECT * FROM auth_factors WHERE user_id = ? ORDER BY created_at')
      .bind(userId)
      .all<FactorRow>()
  ).results

export const findFactor = (db: D1Database, userId: string, id: string) =>
  db
    .prepare('SELECT * FROM auth_factors WHERE id = ? AND user_id = ?')
    .bind(id, userId)
    .first<FactorRow>()

/** A new unverified TOTP factor; null when the user has one by that name already. */
export async function createFactor(
  db: D1Database,
  f: { userId: string; friendlyName: string | null; secret: string },
) {
  // an enrolment that was never confirmed makes way for the new one of the same name
  await db
    .prepare(
      `DELETE FROM auth_factors WHERE user_id = ? AND status = 'unverified'
       AND (friendly_name IS ? OR created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day'))`,
    )
    .bind(f.userId, f.friendlyName)
    .run()
  return db
    .prepare(
      `INSERT INTO auth_factors (id, user_id, friendly_name, factor_type, secret)
       VALUES (?, ?, ?, 'totp', ?) ON CONFLICT DO NOTHING RETURNING *`,
    )
    .bind(crypto.randomUUID(), f.userId, f.friendlyName, f.secret)
    .first<FactorRow>()
}

/** Removes the factor; sessions it raised to aal2 fall back to aal1. */
export async function deleteFactor(db: D1Database, id: string) {
  await db.batch([
    db
      .prepare(
        `UPDATE auth_sessions SET aal = 'aal1', amr = replace(amr, ',totp', ''), factor_id = NULL
         WHERE factor_id = ?`,
      )
      .bind(id),
    db.prepare('DELETE FROM auth_factors WHERE id = ?').bind(id),
  ])
}

export async function createChallenge(db: D1Database, factorId: string, ip: string | null) {
  return (await db
    .prepare(
      'INSERT INTO auth_challenges (id, factor_id, ip_address) VALUES (?, ?, ?) RETURNING id, created_at',
    )
    .bind(crypto.randomUUID(), factorId, ip)
    .first<{ id: string; created_at: string }>())!
}

export const CHALLENGE_SECONDS = 300

/** The challenge, if it belongs to the factor, is unanswered and under five minutes old. */
export const openChallenge = (db: D1Database, id: string, factorId: string) =>
  db
    .prepare(
      `SELECT id FROM auth_challenges WHERE id = ? AND factor_id = ? AND verified_at IS NULL
       AND created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${CHALLENGE_SECONDS} seconds')`,
    )
    .bind(id, factorId)
    .first<{ id: string }>()

/**
 * Accepts a correct code for time step `step`: answers the challenge, verifies the factor and
 * raises the session to aal2 with a fresh refresh token. The conditional UPDATE of last_step is
 * the one place a code is spent, so the same code cannot be used twice, even at once.
 */
export async function acceptCode(
  db: D1Database,
  a: { factorId: string; challengeId: string; step: number; sessionId: string },
) {
  const spent = await db
    .prepare(
      `UPDATE auth_factors SET last_step = ?, status = 'verified',
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE id = ? AND (last_step IS NULL OR last_step < ?)`,
    )
    .bind(a.step, a.factorId, a.step)
    .run()
  if (spent.meta.changes !== 1) return null
  const token = randomToken()
  const [, , , , session] = await db.batch([
    db
      .prepare(
        `UPDATE auth_challenges SET verified_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`,
      )
      .bind(a.challengeId),
    db.prepare('UPDATE auth_refresh_tokens SET revoked = 1 WHERE session_id = ?').bind(a.sessionId),
    db
      .prepare('INSERT INTO auth_refresh_tokens (token, session_id) VALUES (?, ?)')
      .bind(token, a.sessionId),
    db
      .prepare(
        `UPDATE auth_sessions SET aal = 'aal2', factor_id = ?,
           amr = CASE WHEN amr LIKE '%totp' THEN amr ELSE amr || ',totp' END
         WHERE id = ?`,
      )
      .bind(a.factorId, a.sessionId),
    db.prepare('SELECT * FROM auth_sessions WHERE id = ?').bind(a.sessionId),
  ])
  return { session: session.results[0] as SessionRow, refreshToken: token }
}

/** The kinds of one-time tokens (migrations/0007_widen_one_time_tokens.sql). */
export type OneTimeTokenType =
  | 'recovery'
  | 'magiclink'
  | 'signup'
  | 'email_change'
  | 'reauthentication'

/** A random six-digit code, every value equally likely. */
function sixDigitCode() {
  // the largest multiple of 10^6 below 2^32: drawing under it leaves no modulo bias
  const limit = 4_294_000_000
  const n = new Uint32Array(1)
  do crypto.getRandomValues(n)
  while (n[0] >= limit)
  return String(n[0] % 1_000_000).padStart(6, '0')
}

/** A code is kept as the SHA-256 of "<user id>:<code>": it only ever matches its own user. */
const codeHash = (userId: string, code: string) => sha256Hex(`${userId}:${code}`)

/**
 * A new one-time link token and six-digit code for the user, in one row: spending either spends
 * both. It retires the user's unused ones of the same type, so only the newest code can be
 * guessed at. The caller e-mails them; D1 keeps only their hashes.
 */
export async function createOneTimeCode(
  db: D1Database,
  userId: string,
  type: 'magiclink' | 'reauthentication',
  mail?: MailOf,
) {
  const token = linkToken()
  const code = sixDigitCode()
  const statements = [
    db
      .prepare(
        `UPDATE auth_one_time_tokens SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE user_id = ? AND type = ? AND used_at IS NULL`,
      )
      .bind(userId, type),
    db
      .prepare(
        'INSERT INTO auth_one_time_tokens (token_hash, user_id, type, code_hash) VALUES (?, ?, ?, ?)',
      )
      .bind(await sha256Hex(token), userId, type, await codeHash(userId, code)),
  ]
  return { token, code, mailIds: await withMail(db, statements, mail, { token, code }) }
}

/**
 * Spends the user's six-digit code of one of the types (once, within an hour). The conditional
 * UPDATE is the one place a code is spent, so it cannot be used twice, even at once. The type of
 * the row spent, or null.
 */
export async function spendOneTimeCode(
  db: D1Database,
  userId: string,
  code: string,
  types: readonly OneTimeTokenType[],
) {
  const row = await db
    .prepare(
      `UPDATE auth_one_time_tokens SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE used_at IS NULL AND token_hash = (
         SELECT token_hash FROM auth_one_time_tokens
         WHERE code_hash = ? AND user_id = ? AND type IN (${types.map(() => '?').join(',')})
           AND used_at IS NULL
           AND created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour')
         LIMIT 1)
       RETURNING type`,
    )
    .bind(await codeHash(userId, code), userId, ...types)
    .first<{ type: OneTimeTokenType }>()
  return row?.type ?? null
}

/** Seconds before the user may be e-mailed another token of this type; 0 when now. */
export async function sendCooldown(
  db: D1Database,
  userId: string,
  type: OneTimeTokenType,
  seconds: number,
) {
  const row = await db
    .prepare(
      'SELECT MAX(created_at) AS last FROM auth_one_time_tokens WHERE user_id = ? AND type = ?',
    )
    .bind(userId, type)
    .first<{ last: string | null }>()
  if (!row?.last) return 0
  const left = seconds - (Date.now() - Date.parse(row.last)) / 1000
  return left > 0 ? Math.ceil(left) : 0
}

export interface FlowStateRow {
  id: string
  user_id: string
  code_challenge: string
  code_challenge_method: 's256' | 'plain'
  authentication_method: 'magiclink' | 'recovery'
  /** the flow's one-time token was spent (by this flow, or by the e-mail's six-digit code) */
  spent: number
  /** older than its one-time token's hour */
  expired: number
}

/** A PKCE flow for the e-mail whose one-time token is `token`; its auth code, to e-mail. */
/** A PKCE flow for a new one-time token: its auth code, and the INSERT for the token's batch. */
export async function flowStateInsert(
  db: D1Database,
  f: {
    userId: string
    token: string
    challenge: string
    method: 's256' | 'plain'
    kind: FlowStateRow['authentication_method']
  },
) {
  const code = crypto.randomUUID()
  const insert = db
    .prepare(
      `INSERT INTO auth_flow_state
         (id, auth_code_hash, user_id, token_hash, code_challenge, code_challenge_method, authentication_method)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      crypto.randomUUID(),
      await sha256Hex(code),
      f.userId,
      await sha256Hex(f.token),
      f.challenge,
      f.method,
      f.kind,
    )
  return { code, insert }
}

/** The flow of an auth code, or null. */
export async function findFlowState(db: D1Database, authCode: string) {
  return db
    .prepare(
      `SELECT f.id, f.user_id, f.code_challenge, f.code_challenge_method, f.authentication_method,
         t.used_at IS NOT NULL AS spent,
         t.created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour') AS expired
       FROM auth_flow_state f JOIN auth_one_time_tokens t ON t.token_hash = f.token_hash
       WHERE f.auth_code_hash = ?`,
    )
    .bind(await sha256Hex(authCode))
    .first<FlowStateRow>()
}

/**
 * Spends the flow's one-time token: the one place a flow is used up, so two exchanges of one
 * code (or the code and the e-mail's six-digit code) cannot both succeed. False when it was
 * spent or expired meanwhile.
 */
export async function spendFlowState(db: D1Database, flowId: string) {
  const row = await db
    .prepare(
      `UPDATE auth_one_time_tokens SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE token_hash = (SELECT token_hash FROM auth_flow_state WHERE id = ?)
         AND used_at IS NULL
         AND created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour')
       RETURNING user_id`,
    )
    .bind(flowId)
    .first<{ user_id: string }>()
  return row !== null
}

/**
 * Deletes a user and everything the service keeps of them: sessions and refresh tokens,
 * factors and their challenges, one-time links and codes, PKCE flows, and the failed-attempt
 * counters under their address. One batch, so a user is gone whole or not at all. The address
 * of the user deleted, or null when there was none.
 */
export async function deleteUser(db: D1Database, id: string) {
  const user = await findUser(db, id)
  if (!user) return null
  const sessions = 'SELECT id FROM auth_sessions WHERE user_id = ?1'
  await db.batch([
    // failure counters: of the address (sign-ins, e-mailed codes), the user, the user's factors
    db
      .prepare(
        `DELETE FROM auth_failures WHERE key IN ('email:' || ?2, 'otp:' || ?2, 'reauth:' || ?1)
           OR key LIKE 'pair:' || ?2 || '|%'
           OR key IN (SELECT 'totp:' || id FROM auth_factors WHERE user_id = ?1)`,
      )
      .bind(id, user.email),
    db.prepare('DELETE FROM auth_flow_state WHERE user_id = ?1').bind(id),
    db.prepare('DELETE FROM auth_one_time_tokens WHERE user_id = ?1').bind(id),
    db
      .prepare(
        'DELETE FROM auth_challenges WHERE factor_id IN (SELECT id FROM auth_factors WHERE user_id = ?1)',
      )
      .bind(id),
    db.prepare('DELETE FROM auth_factors WHERE user_id = ?1').bind(id),
    db.prepare(`DELETE FROM auth_refresh_tokens WHERE session_id IN (${sessions})`).bind(id),
    db.prepare('DELETE FROM auth_sessions WHERE user_id = ?1').bind(id),
    db.prepare('DELETE FROM auth_users WHERE id = ?1').bind(id),
  ])
  return user.email
}

/** Days an ended session is kept (for the account's own history) before it is deleted. */
export const ENDED_SESSION_DAYS = 30

/**
 * The daily clean-up (README: "Retention"): one-time links and codes once spent or past their
 * hour, PKCE flows past their hour, challenges past their minutes, sessions 30 days after they
 * ended, failed-attempt counters of past windows. Counts of rows deleted, by table.
 */
export async function purgeExpired(db: D1Database, failureWindowSeconds: number) {
  const ago = (modifier: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '${modifier}')`
  const results = await db.batch([
    db.prepare(`DELETE FROM auth_flow_state WHERE created_at < ${ago('-1 hour')}`),
    db.prepare(
      `DELETE FROM auth_one_time_tokens WHERE used_at IS NOT NULL OR created_at < ${ago('-1 day')}`,
    ),
    db.prepare(
      `DELETE FROM auth_challenges WHERE created_at < ${ago(`-${CHALLENGE_SECONDS} seconds`)}`,
    ),
    db.prepare(
      `DELETE FROM auth_refresh_tokens WHERE session_id IN (SELECT id FROM auth_sessions
       WHERE revoked_at IS NOT NULL AND revoked_at < ${ago(`-${ENDED_SESSION_DAYS} days`)})`,
    ),
    db.prepare(
      `DELETE FROM auth_sessions
       WHERE revoked_at IS NOT NULL AND revoked_at < ${ago(`-${ENDED_SESSION_DAYS} days`)}`,
    ),
    // counters of windows before the current one no longer count for anything
    db
      .prepare('DELETE FROM auth_failures WHERE window_start < ?')
      .bind(windowOf(failureWindowSeconds)),
  ])
  const [flows, oneTime, challenges, , sessions, failures] = results.map((r) => r.meta.changes)
  return { flows, oneTime, challenges, sessions, failures }
}
