import type { GuideSlug } from '../../../client/schemas/leads'
import { guideUrl } from '../../data/guides'
import type { MailTemplate } from './context'

/** "… has been sent to your email" (SPEC §8): the guide a visitor asked for. */
export const guide: MailTemplate<{ name: string; guide: GuideSlug }> = {
  category: 'transactional',
  letter: ({ t, lang, config }, { name, guide }) => {
    const title = t(`guides.${guide}.title`)
    return {
      subject: t('mail.guide_subject', { title }),
      preview: t('mail.guide_intro', { title }),
      greeting: t('mail.greeting', { name }),
      paragraphs: [t('mail.guide_intro', { title })],
      action: { label: t('mail.guide_action'), url: config.siteUrl + guideUrl(guide, lang) },
      closing: `${t('mail.guide_outro', { url: config.siteUrl + '/book' })}\n\n${t('mail.signoff')}`,
    }
  },
}
