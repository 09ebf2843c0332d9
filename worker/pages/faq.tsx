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
        </div>
      </section>
      <CtaBand title={t('home.cta_title')} text={t('home.cta_text')} />
    </>
  )
}
