import type { Context } from 'hono'
import type { AppEnv } from '../env'
import type { Confirmation, Unsubscribed } from '../services/consent'
import { usePage } from '../render/context'
import { PageHero } from './page-parts'

/**
 * The pages of e-mailed links (consent and data rights). A link opens a page with one button:
 * the action is a POST, so a mail scanner that opens links never confirms, unsubscribes or
 * erases anything by itself. The button's answer is a result page, worded here.
 */

/** What an e-mailed link will do, and the button that does it. */
export function LinkActionPage({
  title,
  text,
  action,
  token,
  button,
  danger = false,
  download = false,
}: {
  title: string
  text: string
  action: string
  token: string
  button: string
  danger?: boolean
  /** The answer is a file (a data export): the page stays, its button ready again soon. */
  download?: boolean
}) {
  return (
    <PageHero title={title} subtitle={text}>
      <form
        method="post"
        action={action}
        data-download={download ? '' : undefined}
        className="mt-8"
      >
        <input type="hidden" name="token" value={token} />
        <button type="submit" className={danger ? 'btn-danger' : 'btn-primary'}>
          {button}
        </button>
      </form>
    </PageHero>
  )
}

/** What a link did (or why it could not), and where to go next. */
export function LinkResultPage({
  title,
  text,
  next,
}: {
  title: string
  text: string
  next?: { href: string; label: string }
}) {
  const { t } = usePage()
  return (
    <PageHero title={title} subtitle={text}>
      <div className="mt-8 flex flex-wrap gap-3">
        {next && (
          <a href={next.href} className="btn-primary">
            {next.label}
          </a>
        )}
        <a href="/" className={next ? 'btn-ghost' : 'btn-primary'}>
          {t('subscription.home')}
        </a>
      </div>
    </PageHero>
  )
}

export type Outcome = {
  status: 200 | 400 | 503
  title: string
  text: string
  next?: { href: string; label: string }
}

export function renderOutcome(c: Context<AppEnv>, { status, title, text, next }: Outcome) {
  c.status(status)
  c.header('Cache-Control', 'no-store')
  c.set('quiet', true)
  return c.render(<LinkResultPage title={title} text={text} next={next} />, {
    title: `${title} | ${c.var.t('meta.title_suffix')}`,
    description: text,
  })
}

/** The words of a link that did not work, by why (shared by the pages' GET handlers). */
export function linkProblem(
  c: Context<AppEnv>,
  reason: 'expired' | 'invalid',
  expiredText: string,
  next?: Outcome['next'],
): Outcome {
  const t = c.var.t
  return reason === 'expired'
    ? { status: 400, title: t('subscription.expired_title'), text: expiredText, next }
    : { status: 400, title: t('subscription.invalid_title'), text: t('subscription.invalid_text') }
}

export function confirmationOutcome(c: Context<AppEnv>, outcome: Confirmation | 'open'): Outcome {
  const t = c.var.t
  if (outcome === 'confirmed')
    return {
      status: 200,
      title: t('subscription.confirmed_title'),
      text: t('subscription.confirmed_text'),
    }
  if (outcome === 'used')
    return { status: 400, title: t('subscription.used_title'), text: t('subscription.used_text') }
  return linkProblem(
    c,
    outcome === 'open' ? 'invalid' : outcome,
    t('subscription.confirm_expired_text'),
  )
}

export function unsubscribeOutcome(c: Context<AppEnv>, outcome: Unsubscribed): Outcome {
  const t = c.var.t
  if (outcome === 'unsubscribed')
    return {
      status: 200,
      title: t('subscription.unsubscribed_title'),
      text: t('subscription.unsubscribed_text'),
    }
  return linkProblem(
    c,
    outcome,
    t('subscription.unsubscribe_expired_text', { email: c.var.config.email }),
  )
}

export const askAgain = (c: Context<AppEnv>) => ({
  href: '/privacy/request',
  label: c.var.t('privacy_request.ask_again'),
})
