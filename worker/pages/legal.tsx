import { PageHero } from '../components/page-parts'
import { usePage } from './context'

export const LEGAL_PAGES = {
  'privacy-policy': 'privacy',
  'terms-of-service': 'terms',
  'refund-policy': 'refund',
} as const
export type LegalKey = (typeof LEGAL_PAGES)[keyof typeof LEGAL_PAGES]

/** Date the policies were last changed; shown on each page. */
const UPDATED = '2026-11-01'

type LegalSection = { heading: string; paragraphs: string[]; items: string[] }

export function LegalPage({ page }: { page: LegalKey }) {
  const { t, lang, config } = usePage()
  const fill = (s: string) => s.replaceAll('{{email}}', config.email)
  const updated = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(UPDATED),
  )
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
      </article>
    </>
  )
}
