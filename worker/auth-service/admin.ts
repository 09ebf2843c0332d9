import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose'
import type { AppEnv } from '../env'
import { deleteUser } from './db'
import { authError, issuerOf, noBearer } from './gotrue'
import { ALG, publicKeys, signingKey } from './keys'

/**
 * The part of GoTrue's admin API the site uses (deleting an account), behind the service role:
 * a bearer token with `role: service_role`, signed by the service's key. A hosted service has
 * its own (its service-role key, AUTH_SERVICE_ROLE_KEY); the built-in one is reached in-process
 * only, with a token the site mints for the one call (serviceRoleToken).
 */
export const adminRoutes = new Hono<AppEnv>()

/** A one-minute service-role token for one in-process admin call. */
export async function serviceRoleToken(c: Context<AppEnv>) {
  const key = await signingKey(c.env)
  return new SignJWT({ role: 'service_role' })
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
    .setIssuer(issuerOf(c))
    .setIssuedAt()
    .setExpirationTime('60s')
    .sign(key.privateKey)
}

/** Whether the request's bearer is a token of ours with the service role (GoTrue's admin). */
export async function hasServiceRole(c: Context<AppEnv>) {
  const token = c.req.header('Authorization')?.match(/^bearer (\S+)$/i)?.[1]
  if (!token) return false
  try {
    const { payload } = await jwtVerify(
      token,
      createLocalJWKSet({ keys: await publicKeys(c.env) }),
      { algorithms: [ALG], issuer: issuerOf(c) },
    )
    return payload.role === 'service_role'
  } catch {
    // as GoTrue, any other token has no admin role
    return false
  }
}

/** GoTrue's check of the admin API's bearer: a token with the service role, or 401/403. */
const serviceRole: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.req.header('Authorization')) return noBearer(c)
  if (await hasServiceRole(c)) return next()
  return authError(c, 403, 'not_admin', 'User not allowed')
}

adminRoutes.delete('/admin/users/:id', serviceRole, async (c) => {
  const email = await deleteUser(c.env.DB, c.req.param('id'))
  if (!email) return authError(c, 404, 'user_not_found', 'User not found')
  return c.json({})
})
