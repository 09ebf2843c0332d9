import type { Bindings } from '../../bindings'
import { cloudflareProvider } from './cloudflare'
import type { MailProvider } from './provider'
import { resendProvider } from './resend'
import { smtpProvider } from './smtp'

/** The provider MAIL_PROVIDER names: a setting, never a code change. */
export function mailProvider(env: Bindings): MailProvider {
  switch (env.MAIL_PROVIDER) {
    case 'resend':
      return resendProvider(env)
    case 'cloudflare':
      return cloudflareProvider(env)
    default:
      return smtpProvider(env)
  }
}
