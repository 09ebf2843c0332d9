import { Icon } from '../../client/components/icon'
import { PageHero } from './page-parts'
import { usePage } from '../render/context'

/** What a form posted without JavaScript answers: the outcome, and the way back. */
export function FormResultPage({
  title,
  text,
  action,
}: {
  title: string
  text: string
  /** A follow-up: the guide file, the calendar invitation. */
  action?: { href: string; label: string }
}) {
  const { t } = usePage()
  return (
    <PageHero title={title} subtitle={text}>
      <div className="mt-8 flex flex-wrap gap-3">
        {action && (
          <a href={action.href} className="btn-primary">
            <Icon name="download" />
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
