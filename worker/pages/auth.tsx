import { PageHero } from '../components/page-parts'
import { usePage } from './context'

/** The sign-in page's shell; the sign-in itself arrives with the auth service. */
export function AuthPage() {
  const { t } = usePage()
  return (
    <PageHero title={t('auth.title')} subtitle={t('auth.subtitle')}>
      <div className="card mt-8 max-w-xl">
        <p className="m-0 text-ink-700">{t('auth.unavailable')}</p>
        <div className="mt-6 flex flex-wrap gap-3">
          <a href="/contact" className="btn-primary">
            {t('common.contact_us')}
          </a>
          <a href="/" className="btn-ghost">
            {t('auth.back_home')}
          </a>
        </div>
      </div>
    </PageHero>
  )
}
