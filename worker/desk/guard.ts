import type { MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
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
 * with the built-in provider (authClient's liveUser), a GET /user with a hosted one; while that
 * cannot answer, the token alone opens the content desk read-only.
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
    if (confirmed.ok && confirmed.data.app_metadata?.role === STAFF_ROLE)
      c.set('account', confirmed.data)
    // the provider (D1, with the built-in one) not answering: the verified token's word, for the
    // content desk only, read-only (desk/content.tsx shows the snapshot, refuses every save)
    else if (!confirmed.ok && confirmed.status >= 500) {
      // elsewhere in the desk, the 503 page (the token is staff's: nothing is revealed)
      if (!c.req.path.startsWith('/desk/content')) throw new HTTPException(503)
      c.set('account', { id: String(claims.sub), email: String(claims.email) })
      c.set('deskReadOnly', c.env.AUTH_URL ? 'sign-in' : 'database')
    } else return refuse()
    c.set('noindex', true)
    c.set('quiet', true)
    c.header('Cache-Control', 'no-store')
    await next()
  }
}
