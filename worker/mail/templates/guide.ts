import type { GuideSlug } from '../../../client/schemas/leads'
import { guideUrl } from '../../data/guides'
import { isOpenNonce } from '../../db/subscribers'
import { confirmLink } from './consent'
import type { MailTemplate } from './context'

/**
 * "… has been sent to your email" (SPEC §8): the guide a visitor asked for. The form also put
 * the address on the list as pending: while that sign-up waits, the e-mail asks to confirm it.
 */
export const guide: MailTemplate<{ name: string; guide: GuideSlug; nonce?: string }> = {
  category: 'transactional',
  letter: async (ctx, { name, guide, nonce }) => {
    const { t, lang, config, db } = ctx
    const title = t(`guides.${guide}.title`)
    const confirm = nonce && (await isOpenNonce(db, nonce)) ? await confirmLink(ctx, nonce) : null
    return {
      subject: t('mail.guide_subject', { title }),
      preview: t('mail.guide_intro', { title }),
      greeting: t('mail.greeting', { name }),
      paragraphs: [t('mail.guide_intro', { title }), ...(confirm ? [t('mail.optin_ask')] : [])],
      action: { label: t('mail.guide_action'), url: config.siteUrl + guideUrl(guide, lang) },
      links: confirm ? [confirm] : undefined,
      closing: `${t('mail.guide_outro', { url: ctx.page('/book') })}\n\n${t('mail.signoff')}`,
    }
  },
}
