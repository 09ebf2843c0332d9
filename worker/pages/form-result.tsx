import { Icon } from '../../client/components/icon'
import { PageHero } from '../components/page-parts'
import { usePage } from './context'

/** What a form posted without JavaScript answers: the outcome, and the way back. */
export function FormResultPage({
  title,
  text,
  download,
}: {
  title: string
  text: string
  download?: string
}) {
  const { t } = usePage()
  return (
    <PageHero title={title} subtitle={text}>
      <div className="mt-8 flex flex-wrap gap-3">
        {download && (
          <a href={download} className="btn-primary">
            <Icon name="download" />
            {t('home.guide_download_again')}
          </a>
        )}
        <a href="/" className="btn-ghost">
          {t('not_found.home')}
        </a>
      </div>
    </PageHero>
  )
}
