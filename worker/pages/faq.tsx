import { CtaBand, Faqs, PageHero } from '../components/page-parts'
import { FAQ_GROUPS } from '../content/kinds'
import type { Question } from '../content/live'
import { usePage } from '../render/context'

/** FAQ accordion: <details>, so it opens and closes without JavaScript. */
export function FaqPage({ questions }: { questions: Question[] }) {
  const { t } = usePage()
  return (
    <>
      <PageHero
        title={t('faq.title')}
        subtitle={t('faq.subtitle')}
        crumbs={[{ label: t('nav.faq') }]}
      />
      <section className="py-14">
        <div className="container max-w-3xl space-y-10">
          {FAQ_GROUPS.filter((g) => g !== 'pricing').map((group) => {
            const items = questions.filter((q) => q.shared.group === group)
            if (!items.length) return null
            const title = t(`faq.group_titles.${group}`)
            return (
              <section key={group} aria-label={title}>
                <h2 className="m-0 mb-4 text-2xl font-bold">{title}</h2>
                <Faqs items={items.map((q) => q.texts)} />
              </section>
            )
          })}
          <aside
            aria-labelledby="faq-more-title"
            className="card flex flex-col items-start gap-4 bg-brand-50 sm:flex-row sm:items-center sm:justify-between"
          >
            <div>
              <h2 id="faq-more-title" className="m-0 text-xl font-bold">
                {t('faq.more_title')}
              </h2>
              <p className="m-0 mt-1 text-ink-700">{t('faq.more_text')}</p>
            </div>
            <a href="/contact" className="btn-primary shrink-0">
              {t('common.contact_us')}
            </a>
          </aside>
        </div>
      </section>
      <CtaBand title={t('home.cta_title')} text={t('home.cta_text')} />
    </>
  )
}
