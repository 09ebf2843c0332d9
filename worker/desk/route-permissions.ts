import type { Permission } from '../roles'

/**
 * Every desk route and the permission it needs, by method and path as the router registered it.
 * staffOnly() (guard.ts) checks it for every request. A route missing here is refused to everyone
 * (and the route-table test fails), so a new route cannot open by default. Finer rules inside a
 * route (what a page shows, a Writer's own drafts) ask `can()` too.
 */
export const DESK_ROUTES = {
  // the leads inbox for those who read leads; anyone else is sent to their own part of the desk
  'GET /desk': 'desk.open',
  'GET /desk/leads.csv': 'leads.export',
  'GET /desk/leads/:kind/:id': 'leads.read',
  'POST /desk/leads/:kind/:id': 'leads.work',
  'GET /desk/bookings': 'bookings.manage',
  'POST /desk/bookings/:id{[0-9]+}/cancel': 'bookings.manage',
  'POST /desk/bookings/:id{[0-9]+}/move': 'bookings.manage',
  'GET /desk/bookings/availability': 'calendar.manage',
  'POST /desk/bookings/availability': 'calendar.manage',
  'POST /desk/bookings/feed': 'calendar.manage',
  'GET /desk/mail': 'mail.outbox',
  'POST /desk/mail/:id{[0-9]+}/resend': 'mail.outbox',
  'POST /desk/mail/held/:choice{release|drop}': 'mail.outbox',
  'GET /desk/visits': 'visits.read',
  'GET /desk/speed': 'speed.read',
  // a Writer's own drafts and everyone's content: which items and kinds, the handlers decide
  // (desk/content-access.ts); publishing asks content.publish there
  'GET /desk/content': 'content.draft',
  'GET /desk/content/:kind': 'content.draft',
  'GET /desk/content/:kind/:id': 'content.draft',
  'POST /desk/content/:kind/:id': 'content.draft',
  'POST /desk/content/:kind/:id/restore': 'content.draft',
  'POST /desk/content/:kind/:id/return': 'content.write',
  'POST /desk/content/media/:name/sizes': 'content.draft',
  'POST /desk/content/media': 'content.draft',
  'POST /desk/content/preview': 'content.draft',
  'GET /desk/newsletters': 'newsletters.send',
  'POST /desk/newsletters': 'newsletters.send',
  'GET /desk/newsletters/:id{[0-9]+}': 'newsletters.send',
  'POST /desk/newsletters/:id{[0-9]+}': 'newsletters.send',
  'GET /desk/newsletters/:id{[0-9]+}/email': 'newsletters.send',
  'GET /desk/history': 'history.read',
  'GET /desk/history.csv': 'history.read',
  'GET /desk/team': 'team.manage',
  'POST /desk/team/invitations': 'team.manage',
  'POST /desk/team/invitations/:id{[0-9]+}/resend': 'team.manage',
  'POST /desk/team/invitations/:id{[0-9]+}/revoke': 'team.manage',
  'POST /desk/team/members/:id/role': 'team.manage',
  'POST /desk/team/members/:id/remove': 'team.manage',
  'POST /desk/team/ownership': 'ownership.transfer',
  'GET /desk/integrations': 'integrations.manage',
  'POST /desk/integrations': 'integrations.manage',
  'POST /desk/integrations/:id{[0-9]+}': 'integrations.manage',
  'POST /desk/integrations/:id{[0-9]+}/toggle': 'integrations.manage',
  'POST /desk/integrations/:id{[0-9]+}/delete': 'integrations.manage',
  'POST /desk/integrations/:id{[0-9]+}/rotate': 'integrations.manage',
  'POST /desk/integrations/:id{[0-9]+}/test': 'integrations.manage',
  'GET /desk/integrations/log': 'integrations.manage',
  'POST /desk/integrations/log/deliveries/:id{[0-9]+}/replay': 'integrations.manage',
  'POST /desk/integrations/log/replay-failed': 'integrations.manage',
  'GET /desk/experiments': 'experiments.manage',
  'GET /desk/experiments/new': 'experiments.manage',
  'POST /desk/experiments': 'experiments.manage',
  'GET /desk/experiments/:id{[0-9]+}': 'experiments.manage',
  'POST /desk/experiments/:id{[0-9]+}': 'experiments.manage',
  'POST /desk/experiments/:id{[0-9]+}/start': 'experiments.manage',
  'POST /desk/experiments/:id{[0-9]+}/resume': 'experiments.manage',
  'POST /desk/experiments/:id{[0-9]+}/pause': 'experiments.manage',
  'POST /desk/experiments/:id{[0-9]+}/stop': 'experiments.manage',
  'POST /desk/experiments/:id{[0-9]+}/winner': 'experiments.manage',
} as const satisfies Record<string, Permission>

/** The permission the route answering this request needs; undefined for one not in the table. */
export function permissionOf(method: string, path: string): Permission | undefined {
  return (DESK_ROUTES as Record<string, Permission>)[
    `${method === 'HEAD' ? 'GET' : method} ${path}`
  ]
}
