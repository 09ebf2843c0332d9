import type { ReactNode } from 'react'
import { renderSVG } from 'uqr'
import { Field } from '../../client/components/field'
import type { Factor } from '../auth-types'
import { SignOutForm } from '../components/account-area'
import { Alert, CodeField, errorMessage, isolate, NewPasswordField } from '../components/auth-form'
import { PageHero } from '../components/page-parts'
import { usePage } from '../render/context'

/** The key for typing into an app by hand, in groups of four. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret

function FactorList({ factors }: { factors: Factor[] }) {
  const { t } = usePage()
  if (!factors.length) return <p className="m-0 mt-3 text-ink-700">{t('auth.mfa_none')}</p>
  return (
    <ul className="m-0 mt-4 list-none space-y-3 p-0">
      {factors.map((f) => (
        <li
          key={f.id}
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 p-3"
        >
          <div>
            <p className="m-0 font-semibold text-ink-900">
              {f.friendly_name || t('auth.mfa_default_name')}
            </p>
            <p className="m-0 mt-1 text-sm text-ink-600">
              {t('auth.mfa_type_totp')} ·{' '}
              {f.status === 'verified'
                ? t('auth.mfa_status_verified')
                : t('auth.mfa_status_unverified')}
            </p>
          </div>
          <form method="post" action="/auth/factors/remove">
            <input type="hidden" name="factor_id" value={f.id} />
            <button
              type="submit"
              className="btn-ghost py-2 text-sm"
              aria-label={`${t('auth.mfa_remove')}: ${f.friendly_name || t('auth.mfa_default_name')}`}
            >
              {t('auth.mfa_remove')}
            </button>
          </form>
        </li>
      ))}
    </ul>
  )
}

/** Setting up an app: scan the code (or type the key), then confirm with the first code. */
function Enrolment({ id, uri, secret }: { id: string; uri: string; secret: string }) {
  const { t } = usePage()
  return (
    <div className="mt-4 space-y-4">
      <ol className="m-0 list-decimal space-y-2 ps-5 text-ink-700">
        <li>{t('auth.mfa_step_scan')}</li>
        <li>{t('auth.mfa_step_code')}</li>
      </ol>
      <div
        role="img"
        aria-label={t('auth.mfa_qr_label')}
        className="qr-code w-48 rounded-lg border border-slate-200 bg-white p-2"
        // our own SVG, drawn by uqr from the service's otpauth:// URI (no outside markup)
        dangerouslySetInnerHTML={{ __html: renderSVG(uri, { border: 1 }) }}
      />
      <div>
        <p className="m-0 text-sm text-ink-600">{t('auth.mfa_secret_label')}</p>
        <p className="m-0 mt-1 font-mono text-base text-ink-900">
          <span dir="ltr" data-secret>
            {grouped(secret)}
          </span>
        </p>
      </div>
      <form method="post" action="/auth/factors/verify" className="max-w-sm space-y-4">
        <CodeField id="enrol-code" />
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-primary">
            {t('auth.mfa_confirm')}
          </button>
          <button type="submit" form="enrol-cancel" className="btn-ghost">
            {t('auth.mfa_cancel')}
          </button>
        </div>
      </form>
      <form id="enrol-cancel" method="post" action="/auth/factors/remove">
        <input type="hidden" name="factor_id" value={id} />
      </form>
    </div>
  )
}

/** One card of the account page, named by its heading (and reachable as #id). */
function Panel({
  id,
  title,
  className = '',
  children,
}: {
  id: string
  title: string
  className?: string
  children: ReactNode
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={`card ${className}`}>
      <h2 id={`${id}-title`} className="m-0 text-xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  )
}

/** Where an address goes in a translated sentence (a character no translation holds). */
const SLOT = '\u2063'

/**
 * A sentence around an address: the address left to right in any language, kept whole and moved
 * to the next line when it does not fit (broken only when longer than a line).
 */
function AroundAddress({ sentence, email }: { sentence: string; email: string }) {
  const [before, after = ''] = sentence.split(SLOT)
  return (
    <>
      {before}
      <bdi dir="ltr" className="inline-block max-w-full break-all">
        {email}
      </bdi>
      {after}
    </>
  )
}

/** The sign-in address, a change of it waiting for its links, and the form to ask for one. */
function EmailPanel({ pending, error }: { pending?: string; error?: string }) {
  const { t, user } = usePage()
  return (
    <Panel id="email" title={t('auth.email_heading')} className="md:col-span-2">
      <p className="m-0 mt-2 text-ink-700">
        <AroundAddress sentence={t('auth.email_current', { email: SLOT })} email={user!.email} />
      </p>
      {pending && (
        <p role="status" className="m-0 mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          <AroundAddress sentence={t('auth.email_pending', { email: SLOT })} email={pending} />
        </p>
      )}
      <form method="post" action="/auth/email" className="mt-4 max-w-sm space-y-4">
        <Alert message={error} />
        <Field
          id="account-new-email"
          label={t('auth.email_new')}
          hint={t('auth.email_new_hint')}
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
        />
        <button type="submit" className="btn-primary">
          {t('auth.email_change_button')}
        </button>
      </form>
    </Panel>
  )
}

/** The signed-in visitor's account: two-step verification, a new password, signing out. */
export function AccountPage({
  error,
  errorIn,
  factors,
  newEmail,
  enrolling,
  deleteCodeSent,
  afterReset,
}: {
  error?: string
  /** the panel the error belongs to (shown there), else above them all */
  errorIn?: string
  /** the second step of deleting: a code was e-mailed */
  deleteCodeSent: boolean
  /** null when the auth service could not be asked */
  factors: Factor[] | null
  /** a new address waiting for its e-mailed links */
  newEmail?: string
  enrolling: { id: string; uri: string; secret: string } | null
  /** here from a password reset link and the code step: the new password is still to choose */
  afterReset: boolean
}) {
  const { t, user } = usePage()
  const listed = factors?.filter((f) => f.id !== enrolling?.id) ?? []
  const message = errorMessage(t, error)
  const errorFor = (panel: 'email' | 'password') => (errorIn === panel ? message : undefined)
  return (
    <PageHero
      title={t('auth.account')}
      subtitle={t('auth.already', { email: isolate(user!.email) })}
      crumbs={[{ label: t('auth.account') }]}
    >
      <div className="mt-8 max-w-3xl">
        <Alert message={errorIn === 'email' || errorIn === 'password' ? undefined : message} />
      </div>
      <div className="grid max-w-3xl gap-6 md:grid-cols-2">
        <Panel id="mfa" title={t('auth.mfa_heading')} className="md:col-span-2">
          <p className="m-0 mt-2 text-ink-700">{t('auth.mfa_intro')}</p>
          {factors === null ? (
            <Alert message={t('auth.errors.unavailable')} />
          ) : (
            <>
              <FactorList factors={listed} />
              {enrolling ? (
                <Enrolment {...enrolling} />
              ) : (
                <form method="post" action="/auth/factors" className="mt-5 space-y-4">
                  <Field
                    id="factor-name"
                    label={t('auth.mfa_name')}
                    name="friendly_name"
                    maxLength={60}
                    defaultValue={t('auth.mfa_default_name')}
                    className="max-w-sm"
                  />
                  <button type="submit" className="btn-primary">
                    {t('auth.mfa_add')}
                  </button>
                </form>
              )}
            </>
          )}
        </Panel>
        <EmailPanel pending={newEmail} error={errorFor('email')} />
        <Panel id="password" title={t('auth.change_password')}>
          {afterReset && (
            <p role="status" className="m-0 mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
              {t('auth.reset_after_code')}
            </p>
          )}
          <p className="m-0 mt-2 text-sm text-ink-600">{t('auth.password_others_note')}</p>
          <form method="post" action="/auth/password" className="mt-4 space-y-4">
            <Alert message={errorFor('password')} />
            <NewPasswordField id="account-password" />
            <button type="submit" className="btn-primary">
              {t('auth.save_password')}
            </button>
          </form>
        </Panel>
        <Panel id="signout" title={t('auth.sign_out')} className="self-start">
          <SignOutForm className="mt-4" button="btn-ghost" />
          <p className="m-0 mt-5 text-sm text-ink-700">{t('auth.sign_out_everywhere_text')}</p>
          <form method="post" action="/auth/sign-out" className="mt-3">
            <input type="hidden" name="scope" value="global" />
            <button type="submit" className="btn-ghost">
              {t('auth.sign_out_everywhere')}
            </button>
          </form>
        </Panel>
        <Panel id="data" title={t('auth.data_heading')} className="md:col-span-2">
          <p className="m-0 mt-2 text-ink-700">{t('auth.data_text')}</p>
          <form method="post" action="/auth/account/data" data-download="" className="mt-4">
            <button type="submit" className="btn-ghost">
              {t('auth.data_button')}
            </button>
          </form>
        </Panel>
        <Panel id="delete" title={t('auth.delete_heading')} className="md:col-span-2">
          <p className="m-0 mt-2 text-ink-700">{t('auth.delete_text')}</p>
          {deleteCodeSent ? (
            <form method="post" action="/auth/account/delete" className="mt-4 max-w-sm space-y-4">
              <p className="m-0 text-ink-700">
                {t('auth.delete_code_sent', { email: isolate(user!.email) })}
              </p>
              <CodeField id="delete-code" hint={t('auth.magic_code_hint')} />
              <button type="submit" className="btn-danger">
                {t('auth.delete_button')}
              </button>
            </form>
          ) : (
            <form method="post" action="/auth/account/delete-code" className="mt-4">
              <button type="submit" className="btn-ghost">
                {t('auth.delete_send_code')}
              </button>
            </form>
          )}
        </Panel>
      </div>
    </PageHero>
  )
}
