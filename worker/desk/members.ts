import type { Context } from 'hono'
import { authClient } from '../auth/client'
import { verifiedFactor } from '../auth/second-step'
import { setRoleIf, swapOwner } from '../auth-service/db'
import { authSettings } from '../config'
import { listMembers, removeMember } from '../db/team'
import type { AppEnv } from '../env'
import { staffRole, type Role } from '../roles'

/**
 * Who is staff, and in what role: one source of truth, the account's app_metadata.role with the
 * auth service (built-in or a hosted GoTrue), read and written through GoTrue's admin API. D1's
 * desk_members is only the index of whose accounts to read (a hosted service cannot be asked for
 * "everyone with a role" without listing every customer).
 */

export interface TeamMember {
  id: string
  email: string
  /** undefined: the auth service could not be asked just now */
  role?: Role
  joinedAt: string
  lastSeenAt: string | null
  secondFactor?: boolean
}

/**
 * The team as the auth service says it is now. An indexed account without a staff role any
 * more (removed or changed outside the desk) leaves the index.
 */
export async function readTeam(c: Context<AppEnv>): Promise<TeamMember[]> {
  const auth = authClient(c)
  const rows = await listMembers(c.env.DB)
  const team = await Promise.all(
    rows.map(async (row): Promise<TeamMember | null> => {
      const res = await auth.adminUser(row.user_id)
      const base = { id: row.user_id, email: row.email, joinedAt: row.joined_at }
      // gone from the service: out of the index; any other failure: shown as not read now
      if (!res.ok && res.status === 404) return null
      if (!res.ok) return { ...base, lastSeenAt: row.last_seen_at }
      const role = staffRole(res.data.app_metadata?.role)
      if (!role) return null
      return {
        ...base,
        email: res.data.email,
        role,
        lastSeenAt: row.last_seen_at,
        secondFactor: Boolean(verifiedFactor(res.data)),
      }
    }),
  )
  const gone = rows.filter((_, i) => team[i] === null).map((r) => removeMember(c.env.DB, r.user_id))
  if (gone.length) c.executionCtx.waitUntil(c.env.DB.batch(gone).catch(() => undefined))
  return team.filter((m): m is TeamMember => m !== null)
}

/** A member's role as the auth service has it now (undefined: none, or it cannot answer). */
export async function roleNow(c: Context<AppEnv>, userId: string) {
  const res = await authClient(c).adminUser(userId)
  return res.ok ? { role: staffRole(res.data.app_metadata?.role), email: res.data.email } : null
}

/** What became of a change: made, refused as the role moved meanwhile, or not known. */
export type RoleChange = 'done' | 'moved' | 'unavailable' | 'unknown'

const builtIn = (c: Context<AppEnv>) => !authSettings(c.env, c.var.config.siteUrl).url

/**
 * A member's role set (or, with null, removed), decided on their role being `expected`. The
 * built-in service changes it only if it still is (one statement); a hosted GoTrue's admin API
 * has no such condition, so the change is made and read back.
 */
export async function changeRole(
  c: Context<AppEnv>,
  userId: string,
  expected: Role,
  next: Role | null,
): Promise<RoleChange> {
  try {
    if (builtIn(c)) return (await setRoleIf(c.env.DB, userId, expected, next)) ? 'done' : 'moved'
  } catch {
    return 'unavailable'
  }
  const res = await authClient(c).adminSetAppMetadata(userId, { role: next })
  if (res.ok) return 'done'
  // a time-out may have been applied all the same: what the service has now says
  const now = await roleNow(c, userId)
  return !now ? 'unknown' : (now.role ?? null) === next ? 'done' : 'unavailable'
}

/**
 * Ownership handed from the Owner to an Admin, who becomes the Owner; the Owner becomes an
 * Admin. The built-in service does it in one transaction (auth-service/db.ts swapOwner). A
 * hosted GoTrue: the Owner demoted, the Admin promoted, and on a failure the Owner restored,
 * each step read back, so the team is never left without an Owner unless the service stops
 * answering in the middle ('unknown', which the page says, with the way to mend it).
 */
export async function handOver(c: Context<AppEnv>, from: string, to: string): Promise<RoleChange> {
  if (builtIn(c))
    try {
      return (await swapOwner(c.env.DB, from, to)) ? 'done' : 'moved'
    } catch {
      return 'unavailable'
    }
  const auth = authClient(c)
  if (!(await auth.adminSetAppMetadata(from, { role: 'admin' })).ok) {
    const me = await roleNow(c, from)
    if (me?.role === 'owner') return 'unavailable'
    if (!me) return 'unknown'
  }
  if ((await auth.adminSetAppMetadata(to, { role: 'owner' })).ok) return 'done'
  const promoted = await roleNow(c, to)
  if (promoted?.role === 'owner') return 'done'
  if ((await auth.adminSetAppMetadata(from, { role: 'owner' })).ok) return 'unavailable'
  return (await roleNow(c, from))?.role === 'owner' ? 'unavailable' : 'unknown'
}
