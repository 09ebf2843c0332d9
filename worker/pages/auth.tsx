import type { Context } from 'hono'
import type { ReactNode } from 'react'
import { Field } from '../../client/components/field'
import { MIN_PASSWORD_LENGTH } from '../../client/schemas/auth'
import { SignOutForm } from '../components/account-area'
import {
  Alert,
  CodeField,
  EmailField,
  errorMessage,
  isolate,
  NewPasswordField,
} from '../components/auth-form'
import { PageHero } from '../components/page-parts'
import type { AppEnv } from '../env'
import { breadcrumbs } from '../seo'
import { titled, usePage } from '../render/context'
import { ChallengeSlot, challengeAttrs, ResumeNote, ResumeScript } from '../components/challenge'

/** One narrow card of a sign-in step: its error, its form, and a way back. */
function AuthCard({
  title,
  subtitle,
  message,
  back,
  children,
}: {
  title: string
  subtitle?: string
  message?: string
  back?: { href: string; label: string }
  children: ReactNode
}) {
  return (
    <PageHero title={title} subtitle={subtitle}>
      <div className="card mt-8 max-w-md">
        <Alert message={message} />
        {children}
        {back && (
          <p className="m-0 mt-4 text-sm">
            <a href={back.href} className="text-brand-700">
              {back.label}
            </a>
          </p>
        )}
      </div>
    </PageHero>
  )
}

/** The error of a form sent without the challenge's token (auth/routes.ts challengeError). */
const NO_TOKEN = 'challenge_needs_script'

type AuthPageProps = {
  mode: 'sign-in' | 'sign-up' | 'forgot' | 'mfa' | 'magic'
  error?: string
  email?: string
  /** The sign-up's password, as typed: only on the answer to its own post (auth/routes.ts). */
  password?: string
  /** our own path to return to after signing in */
  next?: string
  sent?: boolean
}

/**
 * Sign in and sign up (SPEC §2 /auth). Plain forms posting to the worker, which keeps the
 * session in HttpOnly cookies; they work without JavaScript. A form that came back because it
 * was sent without the challenge's token (pressed before the page's scripts came, or without
 * JavaScript: `challenge_needs_script`) is filled in as it was sent and sends itself once the
 * page's scripts run; without JavaScript it says JavaScript is needed.
 */
export function AuthPage({ mode, error, email, password, next, sent }: AuthPageProps) {
  const { t, user, challenge } = usePage()
  const signUp = mode === 'sign-up'
  const resume = error === NO_TOKEN && !!challenge
  const message = resume ? undefined : errorMessage(t, error)
  // `error` leaves the address before the form sends itself: a reload sends nothing again
  const again = resume ? 'error' : undefined
  const note = resume && (
    <ResumeNote
      text={t('auth.errors.challenge_needs_script')}
      className="m-0 mb-4 rounded-lg bg-brand-50 p-3 text-sm text-ink-900"
    />
  )
  if (user)
    return (
      <PageHero
        title={t('auth.title')}
        subtitle={t('auth.already', { email: isolate(user.email) })}
      >
        <SignOutForm className="mt-8" button="btn-primary" />
      </PageHero>
    )
  if (mode === 'mfa')
    return (
      <AuthCard
        title={t('auth.mfa_title')}
        subtitle={t('auth.mfa_text')}
        message={message}
        back={{ href: '/auth', label: t('auth.mfa_other_account') }}
      >
        <form method="post" action="/auth/mfa" className="space-y-4">
          <CodeField id="auth-code" />
          <button type="submit" className="btn-primary w-full">
            {t('auth.mfa_verify')}
          </button>
        </form>
      </AuthCard>
    )
  if (mode === 'magic')
    return (
      <AuthCard
        title={t('auth.magic_title')}
        subtitle={t('auth.magic_text')}
        message={message}
        back={{ href: '/auth', label: t('auth.magic_use_password') }}
      >
        {sent ? (
          <>
            <p role="status" className="m-0 mb-4 rounded-lg bg-brand-50 p-3 text-ink-900">
              {t('auth.magic_sent')}
            </p>
            <form method="post" action="/auth/magic-code" className="space-y-4">
              <input type="hidden" name="email" value={email} />
              <CodeField id="magic-code" hint={t('auth.magic_code_hint')} />
              <button type="submit" className="btn-primary w-full">
                {t('auth.mfa_verify')}
              </button>
            </form>
          </>
        ) : (
          <>
            {note}
            <form
              method="post"
              action="/auth/magic-link"
              className="space-y-4"
              {...challengeAttrs(challenge, t, 'magic-link', again)}
            >
              <EmailField email={email} />
              <button type="submit" className="btn-primary w-full">
                {t('auth.magic_send')}
              </button>
              <ChallengeSlot />
            </form>
            {resume && <ResumeScript />}
          </>
        )}
      </AuthCard>
    )
  if (mode === 'forgot')
    return (
      <AuthCard
        title={t('auth.forgot_title')}
        subtitle={t('auth.forgot_text')}
        message={message}
        back={{ href: '/auth', label: t('nav.sign_in') }}
      >
        {sent ? (
          <p role="status" className="m-0 rounded-lg bg-brand-50 p-3 text-ink-900">
            {t('auth.sent')}
          </p>
        ) : (
          <>
            {note}
            <form
              method="post"
              action="/auth/recover"
              className="space-y-4"
              {...challengeAttrs(challenge, t, 'recover', again)}
            >
              <EmailField email={email} />
              <button type="submit" className="btn-primary w-full">
                {t('auth.send_link')}
              </button>
              <ChallengeSlot />
            </form>
            {resume && <ResumeScript />}
          </>
        )}
      </AuthCard>
    )
  if (signUp && sent)
    return (
      <AuthCard
        title={t('auth.confirm_sent_title')}
        subtitle={t('auth.sign_up_title')}
        back={{ href: '/auth', label: t('nav.sign_in') }}
      >
        <p role="status" className="m-0 rounded-lg bg-brand-50 p-3 text-ink-900">
          {t('auth.confirm_sent', { email: email ?? '' })}
        </p>
      </AuthCard>
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
        <Alert message={message} />
        {signUp && note}
        <form
          method="post"
          action={signUp ? '/auth/sign-up' : '/auth/sign-in'}
          className="space-y-4"
          {...(signUp ? challengeAttrs(challenge, t, 'sign-up', again) : {})}
        >
          {next && <input type="hidden" name="next" value={next} />}
          <EmailField email={email} />
          <Field
            id="auth-password"
            label={t('auth.password')}
            hint={signUp ? t('auth.password_hint') : undefined}
            name="password"
            type="password"
            required
            minLength={signUp ? MIN_PASSWORD_LENGTH : undefined}
            autoComplete={signUp ? 'new-password' : 'current-password'}
            defaultValue={signUp ? password : undefined}
          />
          <button type="submit" className="btn-primary w-full">
            {signUp ? t('auth.sign_up') : t('nav.sign_in')}
          </button>
          {signUp && <ChallengeSlot />}
        </form>
        {signUp && resume && <ResumeScript />}
        {!signUp && (
          <p className="m-0 mt-4 flex flex-wrap justify-between gap-x-4 gap-y-2 text-sm">
            <a href="/auth?mode=forgot" className="text-brand-700">
              {t('auth.forgot_link')}
            </a>
            <a href="/auth?mode=magic" className="text-brand-700">
              {t('auth.magic_link')}
            </a>
          </p>
        )}
      </div>
    </PageHero>
  )
}

/**
 * /auth in one of its modes, as its handler (pages/index.tsx) and the answer to a sign-up sent
 * without a token (auth/routes.ts) render it. A form that sends itself again is an errand page
 * (`quiet`): nothing pops up over it; and the visitor's own, kept by no cache.
 */
export function renderAuthPage(c: Context<AppEnv>, props: AuthPageProps) {
  const { t } = c.var
  const titles = {
    'sign-in': t('auth.title'),
    'sign-up': t('auth.sign_up_title'),
    forgot: t('auth.forgot_title'),
    mfa: t('auth.mfa_title'),
    magic: t('auth.magic_title'),
  }
  if (props.error === NO_TOKEN) {
    c.set('quiet', true)
    c.header('Cache-Control', 'no-store')
  }
  return c.render(<AuthPage {...props} />, {
    title: titled(c, titles[props.mode]),
    description: t('auth.meta_description'),
    canonicalPath: '/auth',
    jsonLd: [breadcrumbs(c, [{ name: t('auth.title'), path: '/auth' }])],
  }) as Response | Promise<Response>
}

/** The recovery e-mail's link: choose a new password (the token is spent on saving). */
export function ResetPage({ token, error }: { token: string; error?: string }) {
  const { t } = usePage()
  return (
    <AuthCard title={t('auth.reset_title')} message={errorMessage(t, error)}>
      <form method="post" action="/auth/reset" className="space-y-4">
        <input type="hidden" name="token" value={token} />
        <NewPasswordField id="auth-new-password" />
        <button type="submit" className="btn-primary w-full">
          {t('auth.save_password')}
        </button>
      </form>
    </AuthCard>
  )
}

/** A sign-in link from the e-mail: one button, so only the visitor's click spends it. */
export function ConfirmPage({
  tokenHash,
  type,
}: {
  tokenHash: string
  type: 'magiclink' | 'signup' | 'email_change'
}) {
  const { t } = usePage()
  const change = type === 'email_change'
  return (
    <AuthCard
      title={t(change ? 'auth.confirm_change_title' : 'auth.confirm_title')}
      subtitle={t(change ? 'auth.confirm_change_text' : 'auth.confirm_text')}
    >
      <form method="post" action="/auth/confirm">
        <input type="hidden" name="token_hash" value={tokenHash} />
        <input type="hidden" name="type" value={type} />
        <button type="submit" className="btn-primary w-full">
          {t(change ? 'auth.confirm_change_button' : 'auth.confirm_button')}
        </button>
      </form>
    </AuthCard>
  )
}
