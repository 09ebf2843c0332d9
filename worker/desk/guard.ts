import type { MiddlewareHandler } from 'hono'
import { authClient } from '../auth/client'
import { accessClaims } from '../auth/session'
import type { AppEnv } from '../env'

/** The role a staff member's app_metadata carries (`npm run staff -- add EMAIL`). */
export const STAFF_ROLE = 'agency'

/**
 * Everything under /desk: a signed-in staff member who passed a second factor (aal2), as the
 * token says and the provider confirms (the session is live, the role still granted). Anyone
 * else learns nothing: pages answer the site's not-found page (404), the rest 403.
 * The token is verified once per request, by session(); the confirmation is one indexed read
 * with the built-in provider (authClient's liveUser), a GET /user with a hosted one.
 */
export function staffOnly(): MiddlewareHandler<AppEnv> {
  return async function staffOnly(c, next) {
    const refuse = () =>
      c.req.method === 'GET' && !c.req.path.endsWith('.csv')
        ? c.notFound()
        : c.json({ error: c.var.t('desk.forbidden') }, 403)
    const claims = await accessClaims(c)
    if (claims?.app_metadata?.role !== STAFF_ROLE || claims.aal !== 'aal2') return refuse()
    const confirmed = await authClient(c).liveUser(c.var.accessToken!, claims)
    if (!confirmed.ok || confirmed.data.app_metadata?.role !== STAFF_ROLE) return refuse()
    c.set('account', confirmed.data)
    c.set('noindex', true)
    c.set('quiet', true)
    c.header('Cache-Control', 'no-store')
    await next()
  }
}
