import { formatDateTime } from '../../i18n/format'
import { shownUrl } from '../../webhooks/address'
import type { MailContext, MailTemplate } from './context'

/**
 * An endpoint the site turned off after five days of failed deliveries, to those who manage
 * integrations (worker/webhooks/notify.ts).
 */
export const webhookDisabled: MailTemplate<{ url: string; description: string; since: string }> = {
  category: 'agency',
  letter: ({ t, lang, config, page }: MailContext, { url, description, since }) => ({
    subject: t('webhooks.disabled_subject', { url: hostOf(url) }),
    preview: t('webhooks.disabled_preview'),
    greeting: t('mail.greeting_plain'),
    paragraphs: [
      t('webhooks.disabled_intro', {
        // (the address itself may be its receiver's credential: its origin and first segment)
        url: shownUrl(url),
        since: formatDateTime(lang, since, config.timeZone),
      }),
      ...(description ? [description] : []),
      t('webhooks.disabled_next'),
    ],
    action: { label: t('webhooks.disabled_action'), url: page('/desk/integrations') },
    closing: t('mail.signoff'),
  }),
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}
