/**
 * Who may do what in the desk: each role is a set of permissions (data, not code), and every
 * desk route names the one it needs (desk/route-permissions.ts). `can()` is the only question the
 * desk asks; the bar, the guard and the handlers' finer checks all ask it.
 */

export const ROLES = ['owner', 'admin', 'editor', 'sales', 'writer'] as const
export type Role = (typeof ROLES)[number]

export const PERMISSIONS = [
  /** The desk itself: its bar and the way to one's own part of it. Every role. */
  'desk.open',
  'leads.read',
  /** Mark a lead handled, note it. */
  'leads.work',
  'leads.export',
  /** Cancel and move visitors' bookings. */
  'bookings.manage',
  /** The agency's hours and its calendar feed. */
  'calendar.manage',
  /** The mail outbox: resend, release or drop held mail. */
  'mail.outbox',
  'visits.read',
  'speed.read',
  /** One's own drafts of articles and case studies, sent for review. */
  'content.draft',
  /** Every kind of content, anyone's: write, pictures, the review queue (send back). */
  'content.write',
  /** Publish, unpublish, restore. */
  'content.publish',
  /** Write, test, schedule and send newsletters. */
  'newsletters.send',
  'team.manage',
  'history.read',
  /** Webhook endpoints, their secrets and the delivery log (desk/integrations.tsx). */
  'integrations.manage',
  /** A/B tests of the site's texts: write, start, stop, pick a winner (desk/experiments.tsx). */
  'experiments.manage',
  /** Hand ownership to an Admin. */
  'ownership.transfer',
] as const
export type Permission = (typeof PERMISSIONS)[number]

const EDITOR: readonly Permission[] = [
  'desk.open',
  'content.draft',
  'content.write',
  'content.publish',
  'newsletters.send',
  'experiments.manage',
  'visits.read',
  'speed.read',
]
const SALES: readonly Permission[] = [
  'desk.open',
  'leads.read',
  'leads.work',
  'leads.export',
  'bookings.manage',
  'mail.outbox',
  'visits.read',
]
const ADMIN: readonly Permission[] = PERMISSIONS.filter((p) => p !== 'ownership.transfer')

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(PERMISSIONS),
  admin: new Set(ADMIN),
  editor: new Set(EDITOR),
  sales: new Set(SALES),
  // their own drafts of articles and case studies, sent for review (desk/content-access.ts)
  writer: new Set<Permission>(['desk.open', 'content.draft']),
}

export const isRole = (value: unknown): value is Role =>
  typeof value === 'string' && (ROLES as readonly string[]).includes(value)

/**
 * A staff role as an account's app_metadata names it. "agency", the one role of before roles,
 * reads as Admin (everything it allowed but handing ownership over): migration 0033 renames it
 * in the built-in service, and a hosted GoTrue's accounts keep it until the agency sets their
 * roles (the team page does, docs/desk.md).
 */
export const staffRole = (value: unknown): Role | undefined =>
  isRole(value) ? value : value === 'agency' ? 'admin' : undefined

/**
 * The roles the team page gives (an invitation, a change): never Owner, which is handed over,
 * by the Owner only, to an Admin (Ghost's rule; there is exactly one).
 */
export const GRANTABLE = ['admin', 'editor', 'sales', 'writer'] as const satisfies readonly Role[]
export type GrantableRole = (typeof GRANTABLE)[number]

/** Whether `role` (a staff member's, or nobody's) may do `permission`. */
export const can = (role: Role | undefined, permission: Permission) =>
  role !== undefined && GRANTS[role].has(permission)
