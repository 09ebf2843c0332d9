import { linkUrl } from '../../consent/links'
import { guideUrl, STARTER_GUIDE } from '../../data/guides'
import type { MailContext, MailTemplate } from './context'

/** The confirmation link of a pending sign-up (its nonce, sealed). */
export async function confirmLink({ seal, config, t, lang }: MailContext, nonce: string) {
  const token = await seal({ p: 'confirm', n: nonce })
  return {
    label: t('mail.optin_action'),
    url: linkUrl(config.siteUrl, '/subscribe/confirm', token, lang),
  }
}

/**
 * Double opt-in: the one e-mail of a sign-up. It delivers what the form promised (the starter
 * guide) and asks to confirm; no newsletter reaches the address until that link is followed.
 * Transactional: the visitor asked for it, and an address that once unsubscribed must still get
 * it to opt in again.
 */
export const subscribeConfirm: MailTemplate<{ name: string; nonce: string }> = {
  category: 'transactional',
  letter: async (ctx, { name, nonce }) => {
    const { t, lang, config } = ctx
    return {
      subject: t('mail.optin_subject'),
      preview: t('mail.optin_intro'),
      greeting: name ? t('mail.greeting', { name }) : t('mail.greeting_plain'),
      paragraphs: [t('mail.optin_intro'), t('mail.optin_ask')],
      action: await confirmLink(ctx, nonce),
      links: [
        { label: t('mail.welcome_action'), url: config.siteUrl + guideUrl(STARTER_GUIDE, lang) },
      ],
      closing: `${t('mail.optin_outro')}\n\n${t('mail.signoff')}`,
    }
  },
}

/** The link of a data request from /privacy/request: a copy of one's data, or its erasure. */
export const dataRequest: MailTemplate<{ action: 'export' | 'erase'; email: string }> = {
  category: 'transactional',
  letter: async ({ t, lang, config, seal }, { action, email }) => {
    const token = await seal({ p: 'data', a: action, e: email })
    return {
      subject: t(`mail.data_${action}_subject`),
      preview: t(`mail.data_${action}_intro`),
      greeting: t('mail.greeting_plain'),
      paragraphs: [t(`mail.data_${action}_intro`)],
      action: {
        label: t(`mail.data_${action}_action`),
        url: linkUrl(config.siteUrl, '/privacy/data', token, lang),
      },
      closing: `${t('mail.data_outro')}\n\n${t('mail.signoff')}`,
    }
  },
}

/** One newsletter issue, in the subscriber's language (services/newsletter.ts). */
export const newsletter: MailTemplate<{ subject: string; paragraphs: string[] }> = {
  category: 'marketing',
  letter: ({ t }, { subject, paragraphs }) => ({
    subject,
    preview: paragraphs[0] ?? subject,
    greeting: t('mail.greeting_plain'),
    paragraphs,
    closing: t('mail.signoff'),
  }),
}
