import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import en from '../../../locales/en.json'
import { purgeRetained } from '../../../worker/scheduled'
import { delivered, unique } from '../mail/helpers'
import { postForm, postJson, SITE, textOf } from './helpers'

// An account holder's data: the download, and deleting the account after an e-mailed code.

const cookiesOf = (res: Response) =>
  Object.fromEntries(
    res.headers.getSetCookie().map((c) => c.split(';')[0].split('=') as [string, string]),
  )
const cookieHeader = (jar: Record<string, string>) =>
  Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ')

async function signedUp(prefix: string) {
  const email = unique(prefix)
  const res = await postForm('/auth/sign-up', { email, password: 'correct horse 1' })
  expect(res.status).toBe(303)
  const jar = cookiesOf(res)
  const userId = (await env.DB.prepare('SELECT id FROM auth_users WHERE email = ?')
    .bind(email)
    .first<{
      id: string
    }>())!.id
  return { email, userId, cookie: cookieHeader(jar) }
}

/** Rows of the auth tables that belong to the user (by id, session or address). */
async function authRowsOf(userId: string, email: string) {
  const count = async (sql: string, ...args: string[]) =>
    (await env.DB.prepare(sql)
      .bind(...args)
      .first<{ n: number }>())!.n
  return {
    users: await count(
      'SELECT COUNT(*) AS n FROM auth_users WHERE id = ? OR email = ?',
      userId,
      email,
    ),
    sessions: await count('SELECT COUNT(*) AS n FROM auth_sessions WHERE user_id = ?', userId),
    refreshTokens: await count(
      'SELECT COUNT(*) AS n FROM auth_refresh_tokens WHERE session_id IN (SELECT id FROM auth_sessions WHERE user_id = ?)',
      userId,
    ),
    factors: await count('SELECT COUNT(*) AS n FROM auth_factors WHERE user_id = ?', userId),
    oneTime: await count(
      'SELECT COUNT(*) AS n FROM auth_one_time_tokens WHERE user_id = ?',
      userId,
    ),
    failures: await count(
      "SELECT COUNT(*) AS n FROM auth_failures WHERE key LIKE '%' || ? || '%'",
      email,
    ),
  }
}

describe('an account holder', { timeout: 60_000 }, () => {
  it('downloads their account and leads as JSON, factors by name only', async () => {
    const { email, cookie } = await signedUp('acct-export')
    await postJson('/api/email-signup', { name: 'Ada', email, source: 'website' })
    const res = await postForm('/auth/account/data', {}, { Cookie: cookie })
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment/)
    const data = await res.json<{
      account: { email: string; factors: unknown[] }
      subscriptions: { email: string }[]
    }>()
    expect(data.account.email).toBe(email)
    expect(data.account.factors).toEqual([])
    expect(data.subscriptions).toEqual([expect.objectContaining({ email, status: 'pending' })])
    // not without a session
    const anonymous = await postForm('/auth/account/data', {})
    expect(anonymous.status).toBe(303)
    expect(anonymous.headers.get('Location')).toBe('/auth?next=/account')
  })

  it('deletes the account only with the e-mailed code, then every auth row and lead is gone', async () => {
    const { email, userId, cookie } = await signedUp('acct-delete')
    await postJson('/api/email-signup', { name: 'Ada', email, source: 'website' })
    // a wrong password leaves a failure counter under the address
    await postForm('/auth/sign-in', { email, password: 'wrong password 1' })

    const asked = await postForm('/auth/account/delete-code', {}, { Cookie: cookie })
    expect(asked.headers.get('Location')).toBe('/account?delete=sent#delete')
    const page = await SELF.fetch(`${SITE}/account?delete=sent`, { headers: { Cookie: cookie } })
    expect(await page.text()).toContain(en.auth.delete_button)
    const mail = await delivered(email, new RegExp(en.auth.magic_link_subject))
    const code = mail.text!.match(/\b\d{6}\b/)![0]

    const wrong = await postForm(
      '/auth/account/delete',
      { code: code === '000000' ? '111111' : '000000' },
      { Cookie: cookie },
    )
    expect(wrong.headers.get('Location')).toBe('/account?delete=sent&error=invalid_code#delete')
    expect((await authRowsOf(userId, email)).users).toBe(1)

    const res = await postForm('/auth/account/delete', { code }, { Cookie: cookie })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe('/')
    // the browser's session cookies are cleared
    expect(res.headers.getSetCookie().filter((c) => /^sb-.*Max-Age=0/.test(c))).toHaveLength(2)
    expect(await authRowsOf(userId, email)).toEqual({
      users: 0,
      sessions: 0,
      refreshTokens: 0,
      factors: 0,
      oneTime: 0,
      failures: 0,
    })
    const lead = await env.DB.prepare('SELECT COUNT(*) AS n FROM subscribers WHERE email = ?')
      .bind(email)
      .first<{ n: number }>()
    expect(lead!.n).toBe(0)
    // the old cookie opens nothing any more
    const after = await SELF.fetch(`${SITE}/account`, {
      headers: { Cookie: cookie },
      redirect: 'manual',
    })
    expect(after.status).toBe(303)
    const home = await SELF.fetch(`${SITE}/`, { headers: { Cookie: cookiesFrom(res) } })
    expect(textOf(await home.text())).not.toContain(email)
  })
})

const cookiesFrom = (res: Response) => cookieHeader(cookiesOf(res))

describe('the daily clean-up', { timeout: 60_000 }, () => {
  it('deletes what the privacy policy says, when it says, and keeps the rest', async () => {
    const db = env.DB
    const daysAgo = (n: number) => new Date(Date.now() - n * 24 * 3600_000).toISOString()
    const stale = unique('stale')
    const fresh = unique('fresh')
    const confirmedLongAgo = unique('loyal')
    for (const [email, status, at] of [
      [stale, 'pending', daysAgo(31)],
      [fresh, 'pending', daysAgo(29)],
      [confirmedLongAgo, 'confirmed', daysAgo(400)],
    ])
      await db
        .prepare(
          `INSERT INTO subscribers (email, signup_form, language, consent_version, status, consented_at, created_at)
           VALUES (?, 'newsletter', 'en', '2026-11-01', ?, ?, ?)`,
        )
        .bind(email, status, at, at)
        .run()
    const { userId } = await signedUp('retention')
    const session = (id: string, revokedAt: string | null) =>
      db
        .prepare('INSERT INTO auth_sessions (id, user_id, revoked_at) VALUES (?, ?, ?)')
        .bind(id, userId, revokedAt)
        .run()
    const old = crypto.randomUUID()
    const recent = crypto.randomUUID()
    await session(old, daysAgo(31))
    await session(recent, daysAgo(10))
    const token = (hash: string, createdAt: string, usedAt: string | null) =>
      db
        .prepare(
          "INSERT INTO auth_one_time_tokens (token_hash, user_id, type, created_at, used_at) VALUES (?, ?, 'magiclink', ?, ?)",
        )
        .bind(hash, userId, createdAt, usedAt)
        .run()
    await token('expired-' + userId, daysAgo(2), null)
    await token('spent-' + userId, daysAgo(0), daysAgo(0))
    await token('open-' + userId, new Date().toISOString(), null)

    const purged = await purgeRetained(env)
    expect(purged.pendingSubscriptions).toBeGreaterThanOrEqual(1)
    const statuses = await db
      .prepare('SELECT email FROM subscribers WHERE email IN (?, ?, ?)')
      .bind(stale, fresh, confirmedLongAgo)
      .all<{ email: string }>()
    expect(statuses.results.map((r) => r.email).sort()).toEqual([confirmedLongAgo, fresh].sort())
    const sessions = await db
      .prepare('SELECT id FROM auth_sessions WHERE id IN (?, ?)')
      .bind(old, recent)
      .all<{ id: string }>()
    expect(sessions.results.map((r) => r.id)).toEqual([recent])
    const tokens = await db
      .prepare('SELECT token_hash FROM auth_one_time_tokens WHERE user_id = ?')
      .bind(userId)
      .all<{ token_hash: string }>()
    expect(tokens.results.map((r) => r.token_hash)).toEqual(['open-' + userId])
  })
})
