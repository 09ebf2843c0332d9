import type { MailTemplate } from './context'

/** The auth provider's e-mails: a link to reset a password, to sign in, to confirm. */

export const authRecovery: MailTemplate<{ link: string }> = {
  category: 'transactional',
  secret: true,
  letter: ({ t }, { link }) => ({
    subject: t('auth.recovery_subject'),
    preview: t('mail.recovery_intro'),
    greeting: t('mail.greeting_plain'),
    paragraphs: [t('mail.recovery_intro')],
    action: { label: t('mail.recovery_action'), url: link },
    closing: `${t('mail.recovery_outro')}\n\n${t('mail.signoff')}`,
  }),
}

export const authMagicLink: MailTemplate<{ link: string; code: string }> = {
  category: 'transactional',
  secret: true,
  letter: ({ t }, { link, code }) => ({
    subject: t('auth.magic_link_subject'),
    preview: t('mail.magic_intro'),
    greeting: t('mail.greeting_plain'),
    paragraphs: [t('mail.magic_intro')],
    action: { label: t('mail.magic_action'), url: link },
    code,
    closing: `${t('mail.magic_outro')}\n\n${t('mail.signoff')}`,
  }),
}

export const authReauthentication: MailTemplate<{ code: string }> = {
  category: 'transactional',
  secret: true,
  letter: ({ t, page }, { code }) => ({
    subject: t('auth.reauthentication_subject'),
    preview: t('mail.reauth_intro'),
    greeting: t('mail.greeting_plain'),
    paragraphs: [t('mail.reauth_intro')],
    code,
    // the closing asks a reader who did not ask for the code to reset the password: the way there
    links: [{ label: t('mail.recovery_action'), url: page('/auth', { mode: 'forgot' }) }],
    closing: `${t('mail.reauth_outro')}\n\n${t('mail.signoff')}`,
  }),
}

export const authConfirmSignup: MailTemplate<{ link: string }> = {
  category: 'transactional',
  secret: true,
  letter: ({ t }, { link }) => ({
    subject: t('mail.confirm_subject'),
    preview: t('mail.confirm_intro'),
    greeting: t('mail.greeting_plain'),
    paragraphs: [t('mail.confirm_intro')],
    action: { label: t('mail.confirm_action'), url: link },
    closing: `${t('mail.confirm_outro')}\n\n${t('mail.signoff')}`,
  }),
}
