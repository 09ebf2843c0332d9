import type { Context } from 'hono'
import { authClient } from '../auth/client'
import { verifiedFactor } from '../auth/second-step'
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
      if (!res.ok && res.status < 500 && res.status !== 401 && res.status !== 403) return null
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

/** Sets (or, with null, removes) an account's desk role; whether the service took it. */
export async function setRole(c: Context<AppEnv>, userId: string, role: Role | null) {
  const res = await authClient(c).adminSetAppMetadata(userId, { role })
  return res.ok
}
