import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { generationsBookmark } from '../../../worker/content/generations'
import { withToken } from '../challenge'
import app from '../../../worker/index'

// One D1 session per request (worker/middleware/d1-session.ts). The worker gets a D1 binding
// that records what each request opens its session from, and passes the rest to the real one.

const SITE = 'https://example.com'
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/

function recordingDb() {
  const opened: (string | undefined)[] = []
  const db: D1Database = {
    prepare: (query) => env.DB.prepare(query),
    batch: (statements) => env.DB.batch(statements),
    exec: (query) => env.DB.exec(query),
    dump: () => env.DB.dump(),
    withSession(constraintOrBookmark) {
      opened.push(constraintOrBookmark)
      return env.DB.withSession(constraintOrBookmark)
    },
  }
  return { db, opened }
}

async function call(path: string, init: RequestInit = {}) {
  const { db, opened } = recordingDb()
  const bindings = { ...env, DB: db }
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(SITE + path, init), bindings, ctx)
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body, opened, bindings, db }
}

let ip = 0
const book = (body: unknown, cookie?: string) =>
  call('/api/bookings', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'CF-Connecting-IP': `198.51.100.${++ip}`,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    // as the booking island posts it, with its challenge token
    body: JSON.stringify(withToken(body)),
  })

const slotsOf = (body: string) => (JSON.parse(body) as { slots: string[] }).slots
const bookmarkCookie = (res: Response) =>
  res.headers.getSetCookie().find((c) => c.startsWith('d1-bookmark='))

describe('D1 session per request', () => {
  it('answers a write with a bookmark cookie; the next request opens its session from it', async () => {
    const [slot] = slotsOf((await call('/api/bookings/slots')).body)
    const write = await book({ slot, name: 'Ada', email: 'ada@example.org' })
    expect(write.res.status).toBe(200)
    // a request that may write starts at the primary
    expect(write.opened).toEqual(['first-primary'])
    const cookie = bookmarkCookie(write.res)!
    expect(cookie).toMatch(/; Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
    const bookmark = cookie.slice('d1-bookmark='.length).split(';')[0]
    expect(bookmark).toMatch(BOOKMARK)

    const read = await call('/api/bookings/slots', {
      headers: { Cookie: `d1-bookmark=${bookmark}` },
    })
    expect(read.opened).toEqual([bookmark])
    // the booked slot is gone at once, and a read sends no new cookie
    expect(slotsOf(read.body)).not.toContain(slot)
    expect(read.res.headers.getSetCookie()).toEqual([])
  })

  it('opens an anonymous read anywhere (no older than the content generations) and sets no cookie', async () => {
    for (const path of ['/', '/api/bookings/slots', '/book']) {
      const { res, opened } = await call(path)
      expect(res.status).toBe(200)
      // the isolate read the content generations (the home page shows testimonials): reads start
      // no older than that read, so a page kept under a generation shows that generation's content
      const seen = generationsBookmark()
      expect(seen).toMatch(BOOKMARK)
      expect(opened.filter((o) => o !== seen && o !== 'first-unconstrained')).toEqual([])
      if (path !== '/') expect(opened).toEqual([seen])
      // an anonymous page stays cacheable: no cookie at all
      expect(res.headers.getSetCookie()).toEqual([])
    }
  })

  it.each([
    ['not a bookmark', 'garbage'],
    ['an injected one', '00000000-0000000d-00000000-0000000000000000000000000000000%27'],
    ['too long', `00000000-0000000d-00000000-${'0'.repeat(33)}`],
  ])('reads past a cookie that is %s as if there were none', async (_, value) => {
    const { res, opened } = await call('/api/bookings/slots', {
      headers: { Cookie: `d1-bookmark=${value}` },
    })
    expect(res.status).toBe(200)
    expect(opened).toEqual([generationsBookmark() ?? 'first-unconstrained'])
  })

  it('sets no cookie on a post that reads and writes nothing', async () => {
    // a past slot: refused with the free slots, read from the database
    const refused = await book({ slot: '2020-01-06T09:00:00.000Z', name: 'Ada', email: 'a@b.org' })
    expect(refused.res.status).toBe(409)
    expect(slotsOf(refused.body).length).toBeGreaterThan(0)
    expect(bookmarkCookie(refused.res)).toBeUndefined()
  })

  it('gives the request its own env: the shared one keeps its binding', async () => {
    const { bindings, db } = await call('/api/bookings/slots')
    expect(bindings.DB).toBe(db)
  })
})
