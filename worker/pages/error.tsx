import { Icon } from '../components/page-icon'
import { HISTORY_BACK_ATTR } from '../../client/enhance/navigation'
import type { MessageKey } from '../i18n/translator'
import { usePage } from '../render/context'

const POPULAR = [
  { key: 'nav.services', href: '/services' },
  { key: 'nav.pricing', href: '/pricing' },
  { key: 'nav.portfolio', href: '/portfolio' },
  { key: 'nav.blog', href: '/blog' },
  { key: 'nav.contact', href: '/contact' },
] as const

type ErrorKind = 'invalid' | 'forbidden' | 'too_large' | 'rate_limited' | 'unavailable' | 'server'

const kindOf = (status: number): ErrorKind =>
  status === 401 || status === 403
    ? 'forbidden'
    : status === 413
      ? 'too_large'
      : status === 429
        ? 'rate_limited'
        : status === 503
          ? 'unavailable'
          : status >= 500
            ? 'server'
            : 'invalid'

/** The page's title and sentence for a status (404: the not-found page's own). */
export function errorTexts(status: number): { title: MessageKey; text: MessageKey } {
  if (status === 404) return { title: 'not_found.title', text: 'not_found.text' }
  const kind = kindOf(status)
  return { title: `error_page.${kind}.title`, text: `error_page.${kind}.text` }
}

/**
 * The site's page for every request of a person that ends in 4xx or 5xx (pages/error-page.tsx):
 * what happened in a sentence, and the way back: to the form that was refused, else home and
 * the most visited pages.
 */
export function ErrorPage({ status, back }: { status: number; back?: string }) {
  const { t } = usePage()
  const texts = errorTexts(status)
  return (
    <section className="container py-20 text-center">
      <p className="m-0 text-6xl font-extrabold text-brand-500">
        <span className="sr-only">{t('error_page.code')} </span>
        {status}
      </p>
      <h1 className="m-0 mt-4 text-4xl font-extrabold">{t(texts.title)}</h1>
      <p className="m-0 mx-auto mt-4 max-w-xl text-lg text-ink-600">{t(texts.text)}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {back && (
          <a href={back} className="btn-primary" {...{ [HISTORY_BACK_ATTR]: '' }}>
            <Icon name="arrow-back" />
            {t('error_page.back_form')}
          </a>
        )}
        <a href="/" className={back ? 'btn-ghost' : 'btn-primary'}>
          {!back && <Icon name="arrow-back" />}
          {t('not_found.home')}
        </a>
      </div>
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
