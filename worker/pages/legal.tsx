import type { Consent } from '../render/consent'
import { PageHero } from '../components/page-parts'
import { formatDay } from '../i18n/format'
import { hasTrackers } from '../config'
import { usePage } from '../render/context'

export const LEGAL_PAGES = {
  'privacy-policy': 'privacy',
  'terms-of-service': 'terms',
  'refund-policy': 'refund',
} as const
export type LegalKey = (typeof LEGAL_PAGES)[keyof typeof LEGAL_PAGES]

/** Date the policies were last changed; shown on each page. */
const UPDATED = '2026-11-01'

type LegalSection = { heading: string; paragraphs: string[]; items: string[] }

export function LegalPage({ page, consent }: { page: LegalKey; consent: Consent }) {
  const { t, lang, config } = usePage()
  const fill = (s: string) => s.replaceAll('{{email}}', config.email)
  const updated = formatDay(lang, UPDATED)
  return (
    <>
      <PageHero title={t(`legal.${page}.title`)} crumbs={[{ label: t(`legal.${page}.title`) }]}>
        <p className="m-0 mt-3 text-sm text-ink-600">
          {t('legal.updated_label')}: <time dateTime={UPDATED}>{updated}</time>
        </p>
      </PageHero>
      <article className="container max-w-3xl pb-16 text-ink-700">
        <p className="m-0 text-lg leading-relaxed">
          {t(`legal.${page}.intro`, { email: config.email })}
        </p>
        {page === 'privacy' && (
          <p className="m-0 mt-6">
            <a href="/privacy/request" className="btn-primary">
              {t('privacy_request.policy_link')}
            </a>
          </p>
        )}
        {t.data<LegalSection[]>(`legal.${page}.sections`).map((s, i) => (
          <section key={i} className="mt-8">
            <h2 className="m-0 text-xl font-bold text-ink-900">{s.heading}</h2>
            {s.paragraphs.map((p, j) => (
              <p key={j} className="m-0 mt-3 leading-relaxed">
                {fill(p)}
              </p>
            ))}
            {s.items.length > 0 && (
              <ul className="mt-3 list-disc space-y-1 ps-6">
                {s.items.map((item, j) => (
                  <li key={j}>{fill(item)}</li>
                ))}
              </ul>
            )}
          </section>
        ))}
        {/* always: the choice also decides whether the experiments count the visitor, which
            a page asks for only while one runs on it (experiments/page.ts) */}
        {page === 'privacy' && (
          <section id="consent" className="mt-10 rounded-2xl border border-slate-200 p-6">
            <h2 className="m-0 text-xl font-bold text-ink-900">{t('consent.settings')}</h2>
            <p className="m-0 mt-2">
              {hasTrackers(config)
                ? t(`consent.current_${consent}`)
                : t(`consent.current_tests_${consent}`)}
            </p>
            <form method="post" action="/api/consent" className="mt-4 flex flex-wrap gap-3">
              <button type="submit" name="choice" value="denied" className="btn-ghost">
                {t('consent.reject')}
              </button>
              <button type="submit" name="choice" value="granted" className="btn-ghost">
                {t('consent.accept')}
              </button>
            </form>
          </section>
        )}
      </article>
    </>
  )
}
