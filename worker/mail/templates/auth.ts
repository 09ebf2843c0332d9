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

/** To the new address of an address change: the link that proves it. */
export const authEmailChange: MailTemplate<{ link: string }> = {
  category: 'transactional',
  secret: true,
  letter: ({ t }, { link }) => ({
    subject: t('mail.email_change_subject'),
    preview: t('mail.email_change_intro'),
    greeting: t('mail.greeting_plain'),
    paragraphs: [t('mail.email_change_intro')],
    action: { label: t('mail.email_change_action'), url: link },
    closing: `${t('mail.email_change_outro')}\n\n${t('mail.signoff')}`,
  }),
}

/**
 * To the current address of an address change: told of it, with a link to approve it
 * when the secure setting asks this address too, and the way to a new password if it was not
 * the owner who asked.
 */
export const authEmailChangeCurrent: MailTemplate<{ newEmail: string; link?: string }> = {
  category: 'transactional',
  secret: true,
  letter: ({ t, page }, { newEmail, link }) => ({
    subject: t('mail.email_change_current_subject'),
    preview: t('mail.email_change_current_intro', { email: newEmail }),
    greeting: t('mail.greeting_plain'),
    paragraphs: [
      t('mail.email_change_current_intro', { email: newEmail }),
      t(link ? 'mail.email_change_current_confirm' : 'mail.email_change_current_notice'),
    ],
    ...(link ? { action: { label: t('mail.email_change_action'), url: link } } : {}),
    links: [{ label: t('mail.recovery_action'), url: page('/auth', { mode: 'forgot' }) }],
    closing: `${t('mail.email_change_current_outro')}\n\n${t('mail.signoff')}`,
  }),
}
