import { Icon } from '../../client/components/icon'
import { usePage } from '../render/context'

const POPULAR = [
  { key: 'nav.services', href: '/services' },
  { key: 'nav.pricing', href: '/pricing' },
  { key: 'nav.portfolio', href: '/portfolio' },
  { key: 'nav.blog', href: '/blog' },
  { key: 'nav.contact', href: '/contact' },
] as const

export function NotFoundPage() {
  const { t } = usePage()
  return (
    <section className="container py-20 text-center">
      <p className="m-0 text-6xl font-extrabold text-brand-500" aria-hidden="true">
        404
      </p>
      <h1 className="m-0 mt-4 text-4xl font-extrabold">{t('not_found.title')}</h1>
      <p className="m-0 mx-auto mt-4 max-w-xl text-lg text-ink-600">{t('not_found.text')}</p>
      <a href="/" className="btn-primary mt-8">
        <Icon name="arrow-back" />
        {t('not_found.home')}
      </a>
      <h2 className="m-0 mt-12 text-lg font-semibold">{t('not_found.popular')}</h2>
      <ul className="m-0 mt-4 flex list-none flex-wrap justify-center gap-3 p-0">
        {POPULAR.map((p) => (
          <li key={p.href}>
            <a href={p.href} className="btn-ghost">
              {t(p.key)}
            </a>
          </li>
        ))}
      </ul>
    </section>
  )
}
