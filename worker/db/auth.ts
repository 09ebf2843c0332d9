export interface UserRow {
  id: string
  email: string
  password_hash: string
  user_metadata: string
  email_confirmed_at: string | null
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
  u: { email: string; passwordHash: string; metadata: object },
) {
  const id = crypto.randomUUID()
  const at = now()
  const row = await db
    .prepare(
      `INSERT INTO auth_users (id, email, password_hash, user_metadata, email_confirmed_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING *`,
    )
    .bind(id, u.email, u.passwordHash, JSON.stringify(u.metadata), at, at, at)
    .first<UserRow>()
  return row
}

export async function updateUser(
  db: D1Database,
  id: string,
  changes: { email?: string; passwordHash?: string; metadata?: object },
) {
  const sets: string[] = []
  const values: unknown[] = []
  if (changes.email) (sets.push('email = ?'), values.push(changes.email))
  if (changes.passwordHash) (sets.push('password_hash = ?'), values.push(changes.passwordHash))
  if (changes.metadata)
    (sets.push('user_metadata = ?'), values.push(JSON.stringify(changes.metadata)))
  sets.push('updated_at = ?')
  values.push(now())
  return db
    .prepare(`UPDATE auth_users SET ${sets.join(', ')} WHERE id = ? RETURNING *`)
    .bind(...values, id)
    .first<UserRow>()
}

const randomToken = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

/** A new session with its first refresh token. */
export async function createSession(db: D1Database, userId: string) {
  const sessionId = crypto.randomUUID()
  const token = randomToken()
  await db.batch([
    db.prepare('INSERT INTO auth_sessions (id, user_id) VALUES (?, ?)').bind(sessionId, userId),
    db
      .prepare('INSERT INTO auth_refresh_tokens (token, session_id) VALUES (?, ?)')
      .bind(token, sessionId),
    db.prepare('UPDATE auth_users SET last_sign_in_at = ? WHERE id = ?').bind(now(), userId),
  ])
  return { sessionId, refreshToken: token }
}

export type Rotation =
  | { ok: true; sessionId: string; userId: string; aal: string; refreshToken: string }
  | { ok: false; reason: 'not_found' | 'reused' | 'revoked' }

/**
 * Exchanges a refresh token for its successor. The UPDATE … WHERE revoked = 0 is the one place
 * a token is spent, so two uses at once cannot both succeed; a second use of a spent token
 * ends the session.
 */
export async function rotateRefreshToken(db: D1Database, token: string): Promise<Rotation> {
  const row = await db
    .prepare(
      `SELECT t.revoked, s.id AS session_id, s.user_id, s.aal, s.revoked_at
       FROM auth_refresh_tokens t JOIN auth_sessions s ON s.id = t.session_id WHERE t.token = ?`,
    )
    .bind(token)
    .first<{
      revoked: number
      session_id: string
      user_id: string
      aal: string
      revoked_at: string | null
    }>()
  if (!row) return { ok: false, reason: 'not_found' }
  if (row.revoked_at) return { ok: false, reason: 'revoked' }
  const spent = await db
    .prepare('UPDATE auth_refresh_tokens SET revoked = 1 WHERE token = ? AND revoked = 0')
    .bind(token)
    .run()
  if (spent.meta.changes !== 1) {
    await revokeSession(db, row.session_id)
    return { ok: false, reason: 'reused' }
  }
  const next = randomToken()
  await db.batch([
    db
      .prepare('INSERT INTO auth_refresh_tokens (token, session_id, parent) VALUES (?, ?, ?)')
      .bind(next, row.session_id, token),
    db
      .prepare('UPDATE auth_sessions SET refreshed_at = ? WHERE id = ?')
      .bind(now(), row.session_id),
  ])
  return {
    ok: true,
    sessionId: row.session_id,
    userId: row.user_id,
    aal: row.aal,
    refreshToken: next,
  }
}

export const findSession = (db: D1Database, id: string) =>
  db
    .prepare('SELECT id, user_id, aal, revoked_at FROM auth_sessions WHERE id = ?')
    .bind(id)
    .first<{ id: string; user_id: string; aal: string; revoked_at: string | null }>()

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
  const { results } = await db
    .prepare(`SELECT id FROM auth_sessions WHERE ${where} AND revoked_at IS NULL`)
    .bind(...params)
    .all<{ id: string }>()
  for (const { id } of results) await revokeSession(db, id)
}

const WINDOW_SECONDS = 15 * 60

/** Counts a failed sign-in for each key (e-mail, IP); returns the highest count in the window. */
export async function countFailure(db: D1Database, keys: string[]) {
  const window = Math.floor(Date.now() / 1000 / WINDOW_SECONDS)
  const rows = await db.batch<{ count: number }>(
    keys.map((key) =>
      db
        .prepare(
          `INSERT INTO auth_failures (key, window_start, count) VALUES (?, ?, 1)
           ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1 RETURNING count`,
        )
        .bind(key, window),
    ),
  )
  return Math.max(...rows.map((r) => r.results[0]?.count ?? 0))
}

export async function failureCount(db: D1Database, keys: string[]) {
  const window = Math.floor(Date.now() / 1000 / WINDOW_SECONDS)
  const row = await db
    .prepare(
      `SELECT MAX(count) AS n FROM auth_failures WHERE window_start = ? AND key IN (${keys.map(() => '?').join(',')})`,
    )
    .bind(window, ...keys)
    .first<{ n: number | null }>()
  return row?.n ?? 0
}

export async function sha256Hex(text: string) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** A new one-time token for the user; the caller e-mails it, D1 keeps only its hash. */
export async function createOneTimeToken(db: D1Database, userId: string, type: 'recovery') {
  const token = randomToken() + randomToken()
  await db
    .prepare('INSERT INTO auth_one_time_tokens (token_hash, user_id, type) VALUES (?, ?, ?)')
    .bind(await sha256Hex(token), userId, type)
    .run()
  return token
}

/** Spends a one-time token (once, within an hour); the user it belongs to, or null. */
export async function useOneTimeToken(db: D1Database, token: string, type: 'recovery') {
  const row = await db
    .prepare(
      `UPDATE auth_one_time_tokens SET used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE token_hash = ? AND type = ? AND used_at IS NULL
         AND created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour')
       RETURNING user_id`,
    )
    .bind(await sha256Hex(token), type)
    .first<{ user_id: string }>()
  return row?.user_id ?? null
}
