import { MIN_PASSWORD_LENGTH } from '../auth/gotrue'
import { usePage } from '../pages/context'

/** What the sign-in and account pages' forms share: field styles, errors, the code field. */
export const fieldClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-ink-900'
export const labelClass = 'mb-1 block text-sm font-medium text-ink-700'

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
]

export const errorMessage = (t: (k: string) => string, error?: string) =>
  error && t(`auth.errors.${KNOWN_ERRORS.includes(error) ? error : 'unavailable'}`)

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
    <div>
      <label htmlFor="auth-email" className={labelClass}>
        {t('auth.email')}
      </label>
      <input
        id="auth-email"
        name="email"
        type="email"
        required
        autoComplete="email"
        defaultValue={email}
        className={fieldClass}
      />
    </div>
  )
}

/** A new password (recovery and the account page), with the rule it must meet. */
export function NewPasswordField({ id }: { id: string }) {
  const { t } = usePage()
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {t('auth.new_password')}
      </label>
      <input
        id={id}
        name="password"
        type="password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        autoComplete="new-password"
        aria-describedby={`${id}-hint`}
        className={fieldClass}
      />
      <p id={`${id}-hint`} className="m-0 mt-1 text-xs text-ink-600">
        {t('auth.password_hint')}
      </p>
    </div>
  )
}

/** The six-digit code of an authenticator app (one-time-code lets phones offer it). */
export function CodeField({ id, hint }: { id: string; hint?: string }) {
  const { t } = usePage()
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {t('auth.mfa_code')}
      </label>
      <input
        id={id}
        name="code"
        type="text"
        inputMode="numeric"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        autoComplete="one-time-code"
        aria-describedby={`${id}-hint`}
        dir="ltr"
        className={`${fieldClass} font-mono text-lg tracking-widest`}
      />
      <p id={`${id}-hint`} className="m-0 mt-1 text-xs text-ink-600">
        {hint ?? t('auth.mfa_code_hint')}
      </p>
    </div>
  )
}

/** An e-mail address inside translated text keeps its own order in Arabic (Unicode isolates). */
export const isolate = (text: string) => `\u2068${text}\u2069`
