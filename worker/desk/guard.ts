import type { MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { matchedRoutes } from 'hono/route'
import { authClient } from '../auth/client'
import { accessClaims } from '../auth/session'
import type { AppEnv } from '../env'
import { can, isRole } from '../roles'
import { permissionOf } from './route-permissions'

/**
 * Everything under /desk: a signed-in staff member who passed a second factor (aal2), as the
 * token says and the provider confirms (the session is live, the role still granted), whose
 * role has the permission the route needs (route-permissions.ts). The role is the account's
 * app_metadata.role (worker/roles.ts), read live on every request, so a change of role or a removal
 * holds at the member's next request, in a tab already open too. Anyone else learns nothing:
 * pages answer the site's not-found page (404), the rest 403.
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
    // a token minted before its account's role was set (or changed) still names a staff role
    // or the one of before roles ("agency"): the live account below is what decides
    const tokenRole = claims?.app_metadata?.role
    if (!(isRole(tokenRole) || tokenRole === 'agency') || claims!.aal !== 'aal2') return refuse()
    const confirmed = await authClient(c).liveUser(c.var.accessToken!, claims!)
    const liveRole = confirmed.ok ? confirmed.data.app_metadata?.role : undefined
    if (confirmed.ok && isRole(liveRole)) {
      c.set('account', confirmed.data)
      c.set('deskRole', liveRole)
    }
    // the provider (D1, with the built-in one) not answering: the verified token's word, for the
    // content desk only, read-only (desk/content.tsx shows the snapshot, refuses every save)
    else if (!confirmed.ok && confirmed.status >= 500 && isRole(tokenRole)) {
      // elsewhere in the desk, the 503 page (the token is staff's: nothing is revealed)
      if (!c.req.path.startsWith('/desk/content')) throw new HTTPException(503)
      c.set('account', { id: String(claims!.sub), email: String(claims!.email) })
      c.set('deskRole', tokenRole)
      c.set('deskReadOnly', c.env.AUTH_URL ? 'sign-in' : 'database')
    } else return refuse()
    // no route of the desk answers this address: the not-found page (or 404) as before roles;
    // a route that answers but is missing from the table is refused to everyone
    const route = matchedRoutes(c).findLast((r) => r.method !== 'ALL')
    if (route) {
      const permission = permissionOf(c.req.method, route.path)
      if (!permission || !can(c.var.deskRole, permission)) return refuse()
    }
    c.set('noindex', true)
    c.set('quiet', true)
    c.header('Cache-Control', 'no-store')
    await next()
  }
}
