import type { MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { matchedRoutes } from 'hono/route'
import { authClient } from '../auth/client'
import { accessClaims } from '../auth/session'
import type { AppEnv } from '../env'
import { seeMember } from '../db/team'
import { can, staffRole as roleOf } from '../roles'
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
    const page = (c.req.method === 'GET' || c.req.method === 'HEAD') && !c.req.path.endsWith('.csv')
    const refuse = () => (page ? c.notFound() : c.json({ error: c.var.t('desk.forbidden') }, 403))
    const claims = await accessClaims(c)
    // a token minted before its account's role was set (or changed) still names a staff role
    // or the one of before roles ("agency"): the live account below is what decides
    const tokenRole = roleOf(claims?.app_metadata?.role)
    if (!tokenRole || claims!.aal !== 'aal2') return refuse()
    // the routes that answer this address: every one must be in the table, and open to the role
    // (a middleware-only match, or none, answers nothing of the desk: refused as beyond it)
    const routes = matchedRoutes(c).filter((r) => r.method !== 'ALL')
    const permissions = routes.map((r) => permissionOf(c.req.method, r.path))
    const confirmed = await authClient(c).liveUser(c.var.accessToken!, claims!)
    const liveRole = confirmed.ok ? roleOf(confirmed.data.app_metadata?.role) : undefined
    if (confirmed.ok && liveRole) {
      c.set('account', confirmed.data)
      c.set('deskRole', liveRole)
      // the team page's "last seen", and a desk sign-in in the history: after the answer
      const member = { id: confirmed.data.id, email: confirmed.data.email }
      c.executionCtx.waitUntil(
        seeMember(c.env.DB, { ...member, sessionId: String(claims!.session_id ?? '') }).catch(
          (err) => console.error('desk: last seen not written', err),
        ),
      )
    }
    // the provider (D1, with the built-in one) not answering: the verified token's word, for the
    // content desk only, read-only: its pages show the snapshot, and of its posts only the
    // editor's save answers (with the page saying nothing was saved, desk/content.tsx)
    else if (!confirmed.ok && confirmed.status >= 500) {
      // elsewhere in the desk, the 503 page (the token is staff's: nothing is revealed)
      const readable = page || routes.every((r) => r.path === '/desk/content/:kind/:id')
      if (!c.req.path.startsWith('/desk/content') || !readable) throw new HTTPException(503)
      c.set('account', { id: String(claims!.sub), email: String(claims!.email) })
      c.set('deskRole', tokenRole)
      c.set('deskReadOnly', c.env.AUTH_URL ? 'sign-in' : 'database')
    } else return refuse()
    if (!routes.length || !permissions.every((p) => p && can(c.var.deskRole, p))) return refuse()
    c.set('noindex', true)
    c.set('quiet', true)
    c.header('Cache-Control', 'no-store')
    await next()
  }
}
