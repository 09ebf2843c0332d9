import type { MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { httpOnlyCookie } from '../cookies'
import { generationsBookmark } from '../content/generations'
import type { AppEnv } from '../env'

/** The visitor's last D1 bookmark: where their next request's reads start (README). */
const BOOKMARK_COOKIE = 'd1-bookmark'
/** A copy normally catches up in far less; the cookie does not outlive the visit by long. */
const TEN_MINUTES = 10 * 60

/** D1's bookmark, e.g. `00000001-00000002-00004e2f-0a83ea2fceebc654de0640c422be4653`. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/
/** A statement that changes the database (the site's SQL never writes behind a WITH). */
const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i
/** Requests that write nothing by their method. The few GETs that do are caught by WRITE. */
const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS']

/**
 * A D1 session behind the D1Database type, so every query of the request goes through it and
 * nothing else changes. A session has no exec, dump or withSession: those go to the binding.
 */
function sessionDatabase(
  db: D1Database,
  session: () => D1DatabaseSession,
  onWrite: () => void,
): D1Database {
  return {
    prepare(query: string) {
      if (WRITE.test(query)) onWrite()
      return session().prepare(query)
    },
    batch: <T>(statements: D1PreparedStatement[]) => session().batch<T>(statements),
    exec: (query: string) => db.exec(query),
    dump: () => db.dump(),
    withSession: (constraintOrBookmark) => db.withSession(constraintOrBookmark),
  }
}

/**
 * Reads from the nearest copy of the database (D1 read replication, README): one D1 session per
 * request. A read starts from the visitor's last bookmark, so they always see their own writes,
 * or anywhere for a visitor who wrote nothing lately. A request that may write (any method but
 * GET, HEAD, OPTIONS) starts at the primary: its checks (a free slot, a rate limit, a one-time
 * code, a refresh token) then read the newest rows, and its writes go there anyway.
 *
 * The rest of the request gets its own env whose DB is the session; the shared env object is
 * never changed. A response to a request that wrote carries the session's new bookmark; others
 * set no cookie (anonymous pages stay cacheable).
 */
export function d1Session(): MiddlewareHandler<AppEnv> {
  return async function d1Session(c, next) {
    const db = c.env.DB
    const cookie = getCookie(c, BOOKMARK_COOKIE)
    const own = cookie && BOOKMARK.test(cookie) ? cookie : undefined
    // never older than the content generations this isolate keys pages by (content/generations.ts)
    const seen = generationsBookmark() ?? undefined
    const bookmark = own && seen ? (own > seen ? own : seen) : (own ?? seen)
    // opened at the first query: most pages (and every cached one) never ask D1 anything
    let session: D1DatabaseSession | undefined
    const open = () =>
      (session ??= db.withSession(
        SAFE_METHODS.includes(c.req.method) ? (bookmark ?? 'first-unconstrained') : 'first-primary',
      ))
    let wrote = false
    // the shared env underneath, only DB of this request's own (no copy of every binding)
    c.env = Object.create(c.env, {
      DB: { value: sessionDatabase(db, open, () => (wrote = true)), enumerable: true },
    }) as AppEnv['Bindings']
    await next()
    const latest = session?.getBookmark()
    // bookmarks sort oldest to newest as strings
    if (wrote && latest && (!own || latest > own))
      setCookie(c, BOOKMARK_COOKIE, latest, httpOnlyCookie(c, '/', TEN_MINUTES))
  }
}
