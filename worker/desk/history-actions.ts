/**
 * Every action the desk's history names (desk_audit.action, written by audit() across the
 * worker), in the groups its "kind of action" filter offers. Each has a label in
 * locales/<lang>.json under desk_history.actions (the key's dot is a level: "lead.mark" is
 * actions.lead.mark); an action not listed here is shown by its own name.
 */
export const ACTION_GROUPS = {
  leads: ['lead.mark', 'leads.export'],
  bookings: ['booking.cancel', 'booking.move', 'booking.availability', 'booking.feed_renew'],
  mail: ['mail.resend', 'mail.release_held', 'mail.drop_held'],
  content: [
    'content.save',
    'content.publish',
    'content.schedule',
    'content.unpublish',
    'content.restore',
    'content.review_submit',
    'content.review_return',
  ],
  newsletters: [
    'newsletter.create',
    'newsletter.save',
    'newsletter.test',
    'newsletter.schedule',
    'newsletter.send',
    'newsletter.cancel',
    'newsletter.retry',
  ],
  team: [
    'team.invite',
    'team.invite_resend',
    'team.invite_revoke',
    'team.invite_accept',
    'team.invite_expire',
    'team.role',
    'team.remove',
    'team.ownership',
  ],
  integrations: [
    'integration.create',
    'integration.update',
    'integration.toggle',
    'integration.delete',
    'integration.rotate',
    'integration.test',
    'integration.replay',
    'integration.replay_failed',
  ],
  experiments: [
    'experiment.create',
    'experiment.update',
    'experiment.start',
    'experiment.pause',
    'experiment.resume',
    'experiment.stop',
    'experiment.winner',
  ],
  sign_ins: ['desk.sign_in'],
  history: ['history.export'],
} as const

export type ActionGroup = keyof typeof ACTION_GROUPS
export const GROUPS = Object.keys(ACTION_GROUPS) as ActionGroup[]
