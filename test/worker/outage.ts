import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import app from '../../worker/index'
import { SITE } from './auth/helpers'

/** What the outage tests share: a D1 binding that fails as an unreachable database does. */

const unreachable = () => {
  throw new Error('D1_ERROR: Network connection lost.')
}
export const failingD1 = new Proxy({} as D1Database, { get: () => unreachable })

/** A D1 whose content tables fail while the rest answers (the generations among them). */
export function contentFailing(db: D1Database | D1DatabaseSession): D1Database {
  return new Proxy(db as D1Database, {
    get(target, name) {
      if (name === 'prepare')
        return (sql: string) =>
          sql.includes('content_items') ? unreachable() : target.prepare(sql)
      if (name === 'withSession')
        return (constraint: string) => contentFailing(target.withSession(constraint))
      const value = target[name as keyof D1Database]
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value
    },
  })
}

/**
 * A deploy of its own (a Worker version id: the edge cache starts empty for it), with a D1
 * that works until `fail()`.
 */
export function site() {
  const deployEnv = {
    ...env,
    CF_VERSION_METADATA: { id: crypto.randomUUID(), tag: '', timestamp: '' },
  }
  async function get(path: string, headers: Record<string, string> = {}) {
    const ctx = createExecutionContext()
    const res = await app.fetch(new Request(SITE + path, { headers }), deployEnv, ctx)
    const body = await res.text()
    await waitOnExecutionContext(ctx)
    return { res, body, source: res.headers.get('x-content-source') }
  }
  return {
    get,
    fail: () => void (deployEnv.DB = failingD1),
    failContent: () => void (deployEnv.DB = contentFailing(env.DB)),
    env: deployEnv,
  }
}

/** A published article's address. */
export const anArticle = async () =>
  (await env.DB.prepare(
    `SELECT slug FROM content_items WHERE kind = 'article' AND status = 'published' LIMIT 1`,
  ).first<{ slug: string }>())!.slug
