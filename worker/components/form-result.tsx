import type { Context } from 'hono'
import { Icon } from './page-icon'
import type { AppEnv } from '../env'
import { PageHero } from './page-parts'
import { usePage } from '../render/context'

type FormAction = { href: string; label: string; download?: boolean }

/** What a form posted without JavaScript answers: the outcome, and the way back. */
export function FormResultPage({
  title,
  text,
  action,
}: {
  title: string
  text: string
  /** A follow-up: the guide file, the calendar invitation (`download`), or the way back. */
  action?: FormAction
}) {
  const { t } = usePage()
  return (
    <PageHero title={title} subtitle={text}>
      <div className="mt-8 flex flex-wrap gap-3">
        {action && (
          // a file (`download`): saved where the page stays, with no progress bar for a next
          // page that never comes (client/enhance/navigation.ts leaves such links alone)
          <a href={action.href} className="btn-primary" download={action.download || undefined}>
            {action.download && <Icon name="download" />}
            {action.label}
          </a>
        )}
        <a href="/" className="btn-ghost">
          {t('not_found.home')}
        </a>
      </div>
    </PageHero>
  )
}

export function formResult(
  c: Context<AppEnv>,
  status: 200 | 400 | 403 | 409 | 429 | 503,
  title: string,
  text: string,
  action?: FormAction,
) {
  c.status(status)
  return c.render(<FormResultPage title={title} text={text} action={action} />, {
    title: `${title} | ${c.var.t('meta.title_suffix')}`,
    description: text,
  }) as Response | Promise<Response>
}

/**
 * A booking's own link (/book/manage) that can no longer change it: the call is past or was
 * cancelled (`gone`, 409), or the link is not one of ours or has expired (400).
 */
export function bookingLinkProblem(c: Context<AppEnv>, problem: string) {
  const t = c.var.t
  return formResult(
    c,
    problem === 'gone' ? 409 : 400,
    t('booking.manage_gone_title'),
    t(problem === 'gone' ? 'booking.manage_gone' : 'booking.manage_expired'),
    { href: '/book', label: t('booking.choose_time') },
  )
}
