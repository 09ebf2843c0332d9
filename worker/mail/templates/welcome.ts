import { guideUrl, STARTER_GUIDE } from '../../data/guides'
import type { MailTemplate } from './context'

/** After a subscription is confirmed: what the subscriber will get, and the guide again. */
export const welcome: MailTemplate<{ name: string }> = {
  category: 'marketing',
  letter: ({ t, lang, config }, { name }) => ({
    subject: t('mail.welcome_subject'),
    preview: t('mail.welcome_intro'),
    greeting: name ? t('mail.greeting', { name }) : t('mail.greeting_plain'),
    paragraphs: [t('mail.welcome_intro')],
    action: {
      label: t('mail.welcome_action'),
      url: config.siteUrl + guideUrl(STARTER_GUIDE, lang),
    },
    closing: `${t('mail.welcome_outro')}\n\n${t('mail.signoff')}`,
  }),
}
