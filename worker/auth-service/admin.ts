import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose'
import * as v from 'valibot'
import { weakPassword } from '../../client/schemas/auth'
import type { AppEnv } from '../env'
import { createUser, deleteUser, findUser, listFactors, setAppMetadata } from './db'
import {
  authError,
  body,
  emailSchema,
  issuerOf,
  noBearer,
  userJson,
  weakPasswordError,
} from './gotrue'
import { ALG, publicKeys, signingKey } from './keys'
import { hashPassword } from './passwords'

/**
 * The part of GoTrue's admin API the site uses (an account read, made with its address proven,
 * its app_metadata changed, deleted), behind the service role:
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

/** GoTrue's admin read of one user, with their factors. */
adminRoutes.get('/admin/users/:id', serviceRole, async (c) => {
  const user = await findUser(c.env.DB, c.req.param('id'))
  if (!user) return authError(c, 404, 'user_not_found', 'User not found')
  return c.json(userJson(user, await listFactors(c.env.DB, user.id)))
})

/** app_metadata's values are JSON; null removes a key (GoTrue's UpdateAppMetaData). */
const Metadata = v.record(v.pipe(v.string(), v.maxLength(100)), v.unknown())

const CreateUser = v.object({
  email: v.string(),
  password: v.optional(v.pipe(v.string(), v.maxLength(200))),
  email_confirm: v.optional(v.boolean()),
  app_metadata: v.optional(Metadata),
  user_metadata: v.optional(Metadata),
})

/**
 * GoTrue's admin create (adminUserCreate): an account whose address the caller vouches for with
 * `email_confirm` (the site does so for an invitation's link, which proved it), its
 * app_metadata set from the start. 422 email_exists when the address has an account.
 */
adminRoutes.post('/admin/users', serviceRole, async (c) => {
  const input = await body(c, CreateUser)
  if (!input) return authError(c, 400, 'bad_json', 'Could not parse request body as JSON')
  const email = v.safeParse(emailSchema, input.email)
  if (!email.success)
    return authError(
      c,
      400,
      'validation_failed',
      'Unable to validate email address: invalid format',
    )
  if (!input.password || weakPassword(input.password)) return weakPasswordError(c)
  const created = await createUser(c.env.DB, {
    email: email.output,
    passwordHash: await hashPassword(input.password),
    metadata: input.user_metadata ?? {},
    confirmed: input.email_confirm === true,
  })
  if (!created)
    return authError(
      c,
      422,
      'email_exists',
      'A user with this email address has already been registered',
    )
  if (input.app_metadata) {
    const user = await setAppMetadata(c.env.DB, created.id, input.app_metadata).catch(() => null)
    if (!user) {
      await deleteUser(c.env.DB, created.id)
      return authError(c, 422, 'validation_failed', 'app_metadata refused')
    }
    return c.json(userJson(user))
  }
  return c.json(userJson(created))
})

const UpdateUser = v.object({ app_metadata: v.optional(Metadata) })

/**
 * GoTrue's admin update, its app_metadata part: each key given is set, a null one removed, the
 * rest kept. The database refuses a second Owner (migrations/0033): 422, nothing changed.
 */
adminRoutes.put('/admin/users/:id', serviceRole, async (c) => {
  const input = await body(c, UpdateUser)
  if (!input) return authError(c, 400, 'bad_json', 'Could not parse request body as JSON')
  const id = c.req.param('id')
  if (!(await findUser(c.env.DB, id))) return authError(c, 404, 'user_not_found', 'User not found')
  const user = input.app_metadata
    ? await setAppMetadata(c.env.DB, id, input.app_metadata).catch(() => null)
    : await findUser(c.env.DB, id)
  if (!user) return authError(c, 422, 'validation_failed', 'app_metadata refused')
  return c.json(userJson(user, await listFactors(c.env.DB, id)))
})
