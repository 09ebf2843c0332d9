import { CtaBand, Faqs, PageHero } from '../components/page-parts'
import { usePage } from '../render/context'

type Group = { title: string; items: { q: string; a: string }[] }

/** FAQ accordion: <details>, so it opens and closes without JavaScript. */
export function FaqPage() {
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
          {t.data<Group[]>('faq.groups').map((group) => (
            <section key={group.title} aria-label={group.title}>
              <h2 className="m-0 mb-4 text-2xl font-bold">{group.title}</h2>
              <Faqs items={group.items} />
            </section>
          ))}
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
