import { SignOutForm } from '../components/account-area'
import { PageHero } from '../components/page-parts'
import { usePage } from './context'

const fieldClass = 'w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-ink-900'
const labelClass = 'mb-1 block text-sm font-medium text-ink-700'
const KNOWN_ERRORS = [
  'invalid_credentials',
  'user_already_exists',
  'weak_password',
  'over_request_rate_limit',
  'missing',
]

/**
 * Sign in and sign up (SPEC §2 /auth). Plain forms posting to the worker, which keeps the
 * session in HttpOnly cookies; they work without JavaScript.
 */
export function AuthPage({
  mode,
  error,
  email,
}: {
  mode: 'sign-in' | 'sign-up'
  error?: string
  email?: string
}) {
  const { t, user } = usePage()
  const signUp = mode === 'sign-up'
  const message = error && t(`auth.errors.${KNOWN_ERRORS.includes(error) ? error : 'unavailable'}`)
  if (user)
    return (
      <PageHero title={t('auth.title')} subtitle={t('auth.already', { email: user.email })}>
        <SignOutForm className="mt-8" button="btn-primary" />
      </PageHero>
    )
  return (
    <PageHero
      title={signUp ? t('auth.sign_up_title') : t('auth.title')}
      subtitle={t('auth.subtitle')}
    >
      <div className="card mt-8 max-w-md">
        <nav aria-label={t('auth.modes')} className="mb-6 flex gap-2">
          <a
            href="/auth"
            aria-current={!signUp ? 'page' : undefined}
            className="btn-ghost flex-1 py-2 text-sm aria-[current=page]:border-brand-600 aria-[current=page]:text-brand-700"
          >
            {t('nav.sign_in')}
          </a>
          <a
            href="/auth?mode=sign-up"
            aria-current={signUp ? 'page' : undefined}
            className="btn-ghost flex-1 py-2 text-sm aria-[current=page]:border-brand-600 aria-[current=page]:text-brand-700"
          >
            {t('auth.sign_up')}
          </a>
        </nav>
        {message && (
          <p role="alert" className="m-0 mb-4 rounded-lg bg-red-50 p-3 text-sm text-red-800">
            {message}
          </p>
        )}
        <form
          method="post"
          action={signUp ? '/auth/sign-up' : '/auth/sign-in'}
          className="space-y-4"
        >
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
          <div>
            <label htmlFor="auth-password" className={labelClass}>
              {t('auth.password')}
            </label>
            <input
              id="auth-password"
              name="password"
              type="password"
              required
              minLength={signUp ? 8 : undefined}
              autoComplete={signUp ? 'new-password' : 'current-password'}
              aria-describedby={signUp ? 'auth-password-hint' : undefined}
              className={fieldClass}
            />
            {signUp && (
              <p id="auth-password-hint" className="m-0 mt-1 text-xs text-ink-600">
                {t('auth.password_hint')}
              </p>
            )}
          </div>
          <button type="submit" className="btn-primary w-full">
            {signUp ? t('auth.sign_up') : t('nav.sign_in')}
          </button>
        </form>
      </div>
    </PageHero>
  )
}
