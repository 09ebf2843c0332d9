import { linkUrl } from '../../consent/links'
import { guideUrl, STARTER_GUIDE } from '../../data/guides'
import { textFor } from '../../db/newsletters'
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

/** An issue of `npm run newsletter` written before the desk (its rows carry their text). */
type LegacyIssue = { subject: string; paragraphs: string[] }
/** An issue of the desk: its text is read from newsletter_texts in the row's language. */
type DeskIssue = { issue: number }

async function issueLetter({ db, config, lang }: MailContext, { issue }: DeskIssue) {
  const text = await textFor(db, issue, lang)
  if (!text) throw new Error(`newsletter ${issue} has no text`)
  // loaded on first use, with the Markdown renderer (content/markdown.ts)
  const { emailBodyHtml, emailBodyText, emailPreheader } = await import('../body')
  const html = emailBodyHtml(text.body, config.siteUrl, lang)
  // the text part and the preheader are made from the HTML: its links absolute and in `lang`
  return {
    subject: text.subject,
    preview: emailPreheader(html),
    paragraphs: [emailBodyText(html)],
    sanitizedHtml: html,
  }
}

/** One newsletter issue, in the subscriber's language (worker/newsletter/send.ts). */
export const newsletter: MailTemplate<LegacyIssue | DeskIssue> = {
  category: 'marketing',
  letter: (ctx, data) =>
    'issue' in data
      ? issueLetter(ctx, data)
      : {
          subject: data.subject,
          preview: data.paragraphs[0] ?? data.subject,
          greeting: ctx.t('mail.greeting_plain'),
          paragraphs: data.paragraphs,
          closing: ctx.t('mail.signoff'),
        },
}

/**
 * A staff member's test of an issue, to their own address: the subscribers' e-mail, its subject
 * marked as a test, its footer saying so and its unsubscribe link inert (render.ts).
 */
export const newsletterTest: MailTemplate<DeskIssue> = {
  category: 'marketing',
  test: true,
  letter: async (ctx, data) => {
    const letter = await issueLetter(ctx, data)
    return { ...letter, subject: `${ctx.t('mail.newsletter_test')} ${letter.subject}` }
  },
}
