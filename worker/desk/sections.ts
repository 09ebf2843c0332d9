import { can, type Permission, type Role } from '../roles'

/** The desk's sections, in its bar's order, each with the permission that opens it. */
export const DESK_SECTIONS = [
  { href: '/desk', key: 'desk.nav.leads', permission: 'leads.read' },
  { href: '/desk/bookings', key: 'desk.nav.bookings', permission: 'bookings.manage' },
  { href: '/desk/mail', key: 'desk.nav.mail', permission: 'mail.outbox' },
  { href: '/desk/visits', key: 'desk.nav.visits', permission: 'visits.read' },
  { href: '/desk/speed', key: 'desk.nav.speed', permission: 'speed.read' },
  { href: '/desk/content', key: 'desk.nav.content', permission: 'content.draft' },
  { href: '/desk/newsletters', key: 'desk.nav.newsletters', permission: 'newsletters.send' },
  {
    href: '/desk/experiments',
    key: 'desk.nav.experiments',
    permission: 'experiments.manage',
  },
  { href: '/desk/team', key: 'desk.nav.team', permission: 'team.manage' },
  {
    href: '/desk/integrations',
    key: 'desk.nav.integrations',
    permission: 'integrations.manage',
  },
  { href: '/desk/history', key: 'desk.nav.history', permission: 'history.read' },
] as const satisfies readonly { href: string; key: string; permission: Permission }[]

export type DeskSection = (typeof DESK_SECTIONS)[number]['href']

/** The sections a member of `role` sees in the bar: only those their role opens. */
export const sectionsFor = (role: Role | undefined) =>
  DESK_SECTIONS.filter((s) => can(role, s.permission))
