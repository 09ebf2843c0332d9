import type { Context } from 'hono'
import { Field } from '../../client/components/field'
import {
  askAgain,
  confirmationOutcome,
  LinkActionPage,
  linkProblem,
  renderOutcome,
  unsubscribeOutcome,
} from '../components/link-pages'
import { openLink } from '../consent/links'
import { isOpenNonce } from '../db/subscribers'
import type { AppEnv } from '../env'
import { breadcrumbs } from '../seo'
import { PageHero } from '../components/page-parts'
import type { MessageKey } from '../i18n/translator'
import { usePage } from '../render/context'
import { ChallengeSlot, challengeAttrs, ResumeNote, ResumeScript } from '../components/challenge'
import { REFUSAL_TEXT } from '../api/challenge'

const CHOICES = ['export', 'erase'] as const
const choiceText = {
  export: ['privacy_request.export', 'privacy_request.export_hint'],
  erase: ['privacy_request.erase', 'privacy_request.erase_hint'],
} satisfies Record<(typeof CHOICES)[number], [MessageKey, MessageKey]>

/**
 * /privacy/request: an address and what to do with its data; a link is e-mailed to it.
 * `resume`: the answer to a post that came without the challenge's token (pressed before the
 * page's scripts came, or without JavaScript): the form as typed, which sends itself once the
 * page's scripts run; without JavaScript it says JavaScript is needed.
 */
export function DataRequestPage({
  error,
  email,
  action,
  resume = false,
}: {
  error?: string
  email?: string
  action?: string
  resume?: boolean
}) {
  const { t, user, challenge } = usePage()
  return (
    <PageHero
      title={t('privacy_request.title')}
      subtitle={t('privacy_request.intro')}
      crumbs={[{ label: t('privacy_request.title') }]}
    >
      {resume && (
        <ResumeNote
          text={t('privacy_request.needs_script')}
          className="m-0 mt-6 max-w-xl rounded-lg bg-brand-50 p-3 text-ink-900"
        />
      )}
      <form
        method="post"
        action="/privacy/request"
        className="card mt-8 max-w-xl space-y-5"
        noValidate
        {...challengeAttrs(challenge, t, 'data-request', resume ? 'error' : undefined)}
      >
        <Field
          id="data-email"
          label={t('privacy_request.email_label')}
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          defaultValue={email ?? user?.email}
          error={error}
        />
        <fieldset className="m-0 space-y-3 border-0 p-0">
          <legend className="mb-2 p-0 text-sm font-medium text-ink-700">
            {t('privacy_request.choice_label')}
          </legend>
          {CHOICES.map((choice, i) => (
            <div
              key={choice}
              className="rounded-lg border border-slate-200 p-3 has-[:checked]:border-brand-600"
            >
              <label className="flex cursor-pointer items-center gap-3 font-semibold text-ink-900">
                <input
                  type="radio"
                  name="action"
                  value={choice}
                  defaultChecked={action ? choice === action : i === 0}
                  className="h-4 w-4 accent-brand-600"
                  aria-describedby={`data-${choice}-hint`}
                />
                {t(choiceText[choice][0])}
              </label>
              <p id={`data-${choice}-hint`} className="m-0 mt-1 ps-7 text-sm text-ink-600">
                {t(choiceText[choice][1])}
              </p>
            </div>
          ))}
        </fieldset>
        <button type="submit" className="btn-primary">
          {t('privacy_request.submit')}
        </button>
        <ChallengeSlot />
        <p className="m-0 text-sm text-ink-600">
          <a
            href={user ? '/account#data' : '/auth?next=/account'}
            className="text-brand-700 underline"
          >
            {t('privacy_request.account_hint')}
          </a>
        </p>
      </form>
      {resume && <ResumeScript />}
    </PageHero>
  )
}

/** An e-mailed link's page: what its button will do; nothing cached (it holds a token). */
function actionPage(c: Context<AppEnv>, page: Parameters<typeof LinkActionPage>[0]) {
  c.header('Cache-Control', 'no-store')
  return c.render(<LinkActionPage {...page} />, {
    title: `${page.title} | ${c.var.t('meta.title_suffix')}`,
    description: page.text,
  })
}

/** /subscribe/confirm?token=: the button that confirms, once the link is known to work. */
export async function serveConfirmPage(c: Context<AppEnv>) {
  const token = c.req.query('token') ?? ''
  const link = await openLink(c.env, token, 'confirm')
  if (!link.ok) return renderOutcome(c, confirmationOutcome(c, link.reason))
  if (!(await isOpenNonce(c.env.DB, link.claims.n)))
    return renderOutcome(c, confirmationOutcome(c, 'used'))
  const { t } = c.var
  return actionPage(c, {
    title: t('subscription.confirm_title'),
    text: t('subscription.confirm_text'),
    action: '/subscribe/confirm',
    token,
    button: t('subscription.confirm_button'),
  })
}

/** /unsubscribe?token=: one button (RFC 8058 clients post to the same address themselves). */
export async function serveUnsubscribePage(c: Context<AppEnv>) {
  const token = c.req.query('token') ?? ''
  const link = await openLink(c.env, token, 'unsubscribe')
  if (!link.ok) return renderOutcome(c, unsubscribeOutcome(c, link.reason))
  const { t } = c.var
  return actionPage(c, {
    title: t('subscription.unsubscribe_title'),
    text: t('subscription.unsubscribe_text'),
    action: '/unsubscribe',
    token,
    button: t('subscription.unsubscribe_button'),
  })
}

/** /privacy/data?token=: what the request's link will do, for which address. */
export async function serveDataLinkPage(c: Context<AppEnv>) {
  const token = c.req.query('token') ?? ''
  const link = await openLink(c.env, token, 'data')
  const { t } = c.var
  if (!link.ok)
    return renderOutcome(
      c,
      linkProblem(c, link.reason, t('privacy_request.expired_text'), askAgain(c)),
    )
  const { a: action, e: email } = link.claims
  return actionPage(c, {
    title: t(`privacy_request.${action}_title`),
    text: t(`privacy_request.${action}_text`, { email }),
    action: '/privacy/data',
    token,
    button: t(
      action === 'export' ? 'privacy_request.download_button' : 'privacy_request.erase_button',
    ),
    danger: action === 'erase',
    download: action === 'export',
  })
}

/**
 * What `?error=` words on the form: an address that was not one, or the challenge's refusal
 * (`missing`, no token at all, is said by the form's note instead: DataRequestPage `resume`).
 */
const REQUEST_ERRORS: Record<string, MessageKey> = {
  email: 'errors.invalid_email',
  ...REFUSAL_TEXT,
}

/**
 * /privacy/request: the form, and on a refused post the form again, as it was typed; after a
 * post without a token (`error=missing`), a form that sends itself once the scripts run.
 */
export function serveDataRequestPage(c: Context<AppEnv>) {
  const { t } = c.var
  const code = c.req.query('error')
  const resume = code === 'missing'
  const error =
    !resume && code && Object.hasOwn(REQUEST_ERRORS, code) ? t(REQUEST_ERRORS[code]) : undefined
  return c.render(
    <DataRequestPage
      error={error}
      email={c.req.query('email')}
      action={c.req.query('action')}
      resume={resume}
    />,
    {
      title: `${t('privacy_request.title')} | ${t('meta.title_suffix')}`,
      description: t('privacy_request.meta_description'),
      canonicalPath: '/privacy/request',
      jsonLd: [breadcrumbs(c, [{ name: t('privacy_request.title'), path: '/privacy/request' }])],
    },
  )
}
