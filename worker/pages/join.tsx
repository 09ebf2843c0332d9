import type { Context } from 'hono'
import { Field } from '../../client/components/field'
import { MIN_PASSWORD_LENGTH } from '../../client/schemas/auth'
import { SignOutForm } from '../components/account-area'
import { Alert, errorMessage, isolate } from '../components/auth-form'
import { PageHero } from '../components/page-parts'
import type { InvitationRow } from '../db/team'
import type { AppEnv } from '../env'
import { formatDateTime } from '../i18n/format'
import { titled, usePage } from '../render/context'

/**
 * /join?token=: an invitation's link (desk/team.tsx e-mails it). Open and in date, it signs in
 * or creates an account for the invited address only, then asks for an authenticator app
 * (auth/join.ts). Otherwise a page says why it cannot: used, withdrawn, expired, not valid, or
 * opened by another signed-in account.
 */

export type JoinState =
  | { kind: 'invalid' }
  | { kind: 'used' | 'revoked' | 'expired'; invitation: InvitationRow }
  | { kind: 'other_account'; invitation: InvitationRow; current: string }
  | { kind: 'member'; invitation: InvitationRow }
  | { kind: 'open'; invitation: InvitationRow; signedIn: boolean; error?: string }

export function JoinPage({ state, token }: { state: JoinState; token: string }) {
  const { t, lang, config } = usePage()
  const when = (iso: string) => formatDateTime(lang, iso, config.timeZone)
  if (state.kind === 'invalid')
    return (
      <Refusal title={t('desk_team.join.invalid_title')} text={t('desk_team.join.invalid_text')} />
    )
  const i = state.invitation
  const inviter = isolate(i.invited_by_email)
  const role = t(`desk_team.roles.${i.role}`)
  switch (state.kind) {
    case 'used':
      return (
        <Refusal title={t('desk_team.join.used_title')} text={t('desk_team.join.used_text')}>
          <a href="/auth?next=/desk" className="btn-primary w-full">
            {t('nav.sign_in')}
          </a>
        </Refusal>
      )
    case 'revoked':
      return (
        <Refusal
          title={t('desk_team.join.revoked_title')}
          text={t('desk_team.join.revoked_text', { inviter })}
        />
      )
    case 'expired':
      return (
        <Refusal
          title={t('desk_team.join.expired_title')}
          text={t('desk_team.join.expired_text', { date: when(i.expires_at), inviter })}
        />
      )
    case 'member':
      return (
        <Refusal title={t('desk_team.join.member_title')} text={t('desk_team.join.member_text')}>
          <a href="/desk" className="btn-primary w-full">
            {t('desk_team.join.open_desk')}
          </a>
        </Refusal>
      )
    case 'other_account':
      return (
        <Refusal
          title={t('desk_team.join.other_title')}
          text={t('desk_team.join.other_text', {
            email: isolate(i.email),
            current: isolate(state.current),
          })}
        >
          <SignOutForm button="btn-primary w-full" />
        </Refusal>
      )
  }
  const intro = t('desk_team.join.intro', { inviter, email: isolate(i.email), role })
  return (
    <PageHero title={t('desk_team.join.title')} subtitle={intro}>
      <div className="mt-8 grid max-w-3xl gap-6 md:grid-cols-2">
        {state.error && (
          <div className="md:col-span-2">
            <Alert message={joinError(t, state.error)} />
          </div>
        )}
        {state.signedIn ? (
          <form method="post" action="/join" className="card space-y-4 md:col-span-2">
            <input type="hidden" name="token" value={token} />
            <input type="hidden" name="intent" value="accept" />
            <p className="m-0 text-ink-700">{t('desk_team.join.then_mfa')}</p>
            <button type="submit" className="btn-primary w-full">
              {t('desk_team.join.accept_button', { role })}
            </button>
          </form>
        ) : (
          <>
            <JoinForm token={token} intent="sign-in" email={i.email} />
            <JoinForm token={token} intent="sign-up" email={i.email} />
            <p className="m-0 text-sm text-ink-700 md:col-span-2">{t('desk_team.join.then_mfa')}</p>
          </>
        )}
      </div>
    </PageHero>
  )
}

/** Sign in with the invited address's password, or create its account: the address is fixed. */
function JoinForm({
  token,
  intent,
  email,
}: {
  token: string
  intent: 'sign-in' | 'sign-up'
  email: string
}) {
  const { t } = usePage()
  const signUp = intent === 'sign-up'
  const id = `join-${intent}`
  return (
    <form method="post" action="/join" className="card space-y-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="m-0 text-lg font-bold text-ink-900">
        {t(signUp ? 'desk_team.join.sign_up_title' : 'desk_team.join.sign_in_title')}
      </h2>
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="intent" value={intent} />
      {/* the address is the invitation's: shown, and told to password managers, not typed */}
      <Field
        id={`${id}-email`}
        label={t('auth.email')}
        name="username"
        type="email"
        value={email}
        readOnly
        dir="ltr"
        autoComplete="username"
      />
      <Field
        id={`${id}-password`}
        label={t(signUp ? 'auth.new_password' : 'auth.password')}
        hint={signUp ? t('auth.password_hint') : undefined}
        name="password"
        type="password"
        required
        minLength={signUp ? MIN_PASSWORD_LENGTH : undefined}
        autoComplete={signUp ? 'new-password' : 'current-password'}
      />
      <button type="submit" className={signUp ? 'btn-ghost w-full' : 'btn-primary w-full'}>
        {t(signUp ? 'desk_team.join.sign_up_button' : 'desk_team.join.sign_in_button')}
      </button>
    </form>
  )
}

function Refusal({
  title,
  text,
  children,
}: {
  title: string
  text: string
  children?: React.ReactNode
}) {
  return (
    <PageHero title={title} subtitle={text}>
      {children && <div className="card mt-8 max-w-md">{children}</div>}
    </PageHero>
  )
}

/** The join page's own errors, then the sign-in's (auth.errors). */
const JOIN_ERRORS = ['account_exists'] as const
function joinError(t: ReturnType<typeof usePage>['t'], error: string) {
  return (JOIN_ERRORS as readonly string[]).includes(error)
    ? t(`desk_team.join.errors.${error as (typeof JOIN_ERRORS)[number]}`)
    : errorMessage(t, error)
}

/** The page, in its state, as the GET and the form's answers render it. */
export function renderJoinPage(c: Context<AppEnv>, state: JoinState, token: string) {
  const { t } = c.var
  c.header('Cache-Control', 'no-store')
  c.set('quiet', true)
  c.set('noindex', true)
  const status: Record<Exclude<JoinState['kind'], 'open'>, 403 | 404 | 409 | 410> = {
    invalid: 404,
    used: 410,
    revoked: 410,
    expired: 410,
    other_account: 403,
    member: 409,
  }
  if (state.kind !== 'open') c.status(status[state.kind])
  else if (state.error) c.status(422)
  return c.render(<JoinPage state={state} token={token} />, {
    title: titled(c, t('desk_team.join.title')),
    description: t('desk_team.join.title'),
  }) as Response | Promise<Response>
}
