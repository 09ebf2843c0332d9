import { Field } from '../../client/components/field'
import { MIN_PASSWORD_LENGTH } from '../../client/schemas/auth'
import type { Translator } from '../i18n/translator'
import { usePage } from '../render/context'

/** What the sign-in and account pages' forms share: errors and their fields. */

/** Error codes (the service's and ours) with a message of their own in `auth.errors`. */
const KNOWN_ERRORS = [
  'invalid_credentials',
  'user_already_exists',
  'weak_password',
  'over_request_rate_limit',
  'missing',
  'otp_expired',
  'invalid_code',
  'mfa_expired',
  'mfa_factor_name_conflict',
  'insufficient_aal',
  'too_many_enrolled_mfa_factors',
  'missing_email',
  'over_email_send_rate_limit',
  'email_not_confirmed',
  'captcha_failed',
  'challenge_needs_script',
  'owner_cannot_delete',
] as const

const isKnown = (error: string): error is (typeof KNOWN_ERRORS)[number] =>
  (KNOWN_ERRORS as readonly string[]).includes(error)

export const errorMessage = (t: Translator, error?: string) =>
  error && t(`auth.errors.${isKnown(error) ? error : 'unavailable'}`)

export function Alert({ message }: { message?: string }) {
  if (!message) return null
  return (
    <p role="alert" className="m-0 mb-4 rounded-lg bg-red-50 p-3 text-sm text-red-800">
      {message}
    </p>
  )
}

/** The visitor's e-mail address, kept from the last try. */
export function EmailField({ email }: { email?: string }) {
  const { t } = usePage()
  return (
    <Field
      id="auth-email"
      label={t('auth.email')}
      name="email"
      type="email"
      required
      autoComplete="email"
      defaultValue={email}
    />
  )
}

/** A new password (recovery and the account page), with the rule it must meet. */
export function NewPasswordField({ id }: { id: string }) {
  const { t } = usePage()
  return (
    <Field
      id={id}
      label={t('auth.new_password')}
      hint={t('auth.password_hint')}
      name="password"
      type="password"
      required
      minLength={MIN_PASSWORD_LENGTH}
      autoComplete="new-password"
    />
  )
}

/** The six-digit code of an authenticator app (one-time-code lets phones offer it). */
export function CodeField({ id, hint }: { id: string; hint?: string }) {
  const { t } = usePage()
  return (
    <Field
      id={id}
      label={t('auth.mfa_code')}
      hint={hint ?? t('auth.mfa_code_hint')}
      name="code"
      type="text"
      inputMode="numeric"
      pattern="[0-9]{6}"
      maxLength={6}
      required
      autoComplete="one-time-code"
      dir="ltr"
      inputClassName="font-mono text-lg tracking-widest"
    />
  )
}

/** An e-mail address inside translated text keeps its own order in Arabic (Unicode isolates). */
export const isolate = (text: string) => `\u2068${text}\u2069`
