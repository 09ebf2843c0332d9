import type { GrantableRole } from '../../roles'
import type { MailContext, MailTemplate } from './context'

/** An invitation to the desk's team: its link works once, for seven days (desk/team.tsx). */
export const teamInvite: MailTemplate<{ token: string; role: GrantableRole; inviter: string }> = {
  category: 'transactional',
  // the link's token: the outbox forgets it once sent (D1 keeps only its hash)
  secret: true,
  letter: ({ t, page }: MailContext, { token, role, inviter }) => {
    const site = t('meta.site_name')
    const roleName = t(`desk_team.roles.${role}`)
    return {
      subject: t('mail.team_invite_subject', { site }),
      preview: t('mail.team_invite_intro', { inviter, site, role: roleName }),
      greeting: t('mail.greeting_plain'),
      paragraphs: [
        t('mail.team_invite_intro', { inviter, site, role: roleName }),
        t('mail.team_invite_steps'),
      ],
      action: { label: t('mail.team_invite_action'), url: page('/join', { token }) },
      closing: `${t('mail.team_invite_outro')}\n\n${t('mail.signoff')}`,
    }
  },
}
