import { Icon } from '../components/page-icon'
import { Artwork, CheckList, CtaBand, Faqs, PageHero, Section } from '../components/page-parts'
import { SERVICES, findService, type Service } from '../data/services'
import { usePage } from '../render/context'

type Step = { title: string; text: string }

function ServiceCard({ service }: { service: Service }) {
  const { t } = usePage()
  const base = `services.items.${service.key}` as const
  return (
    <li className="card flex flex-col">
      <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
        <Icon name={service.icon} className="h-6 w-6" />
      </span>
      <h2 className="m-0 mt-4 text-xl font-bold">{t(`${base}.name`)}</h2>
      <p className="m-0 mt-2 flex-1 text-ink-600">{t(`${base}.short`)}</p>
      <a
        href={`/services/${service.slug}`}
        className="mt-4 inline-flex items-center gap-1 font-semibold text-brand-700 no-underline hover:underline"
      >
        {t('services.view_service')}
        <span className="sr-only">: {t(`${base}.name`)}</span>
        <Icon name="arrow" className="h-4 w-4" />
      </a>
    </li>
  )
}

export function ServicesPage() {
  const { t } = usePage()
  return (
    <>
      <PageHero
        title={t('services.title')}
        subtitle={t('services.subtitle')}
        crumbs={[{ label: t('nav.services') }]}
      />
      <section className="py-14">
        <div className="container">
          <ul className="m-0 grid list-none gap-6 p-0 sm:grid-cols-2 lg:grid-cols-3">
            {SERVICES.map((s) => (
              <ServiceCard key={s.slug} service={s} />
            ))}
          </ul>
        </div>
      </section>
      <CtaBand title={t('home.cta_title')} text={t('home.cta_text')} />
    </>
  )
}

/** One template for every service page (SPEC §2): what, who, deliverables, process, outcomes, FAQs. */
export function ServicePage({ service }: { service: Service }) {
  const { t } = usePage()
  const base = `services.items.${service.key}` as const
  return (
    <>
      <PageHero
        title={t(`${base}.name`)}
        subtitle={t(`${base}.tagline`)}
        crumbs={[{ label: t('nav.services'), href: '/services' }, { label: t(`${base}.name`) }]}
        picture={
          <Artwork
            name={`service-${service.slug}`}
            alt={t('services.image_alt', { service: t(`${base}.name`) })}
            eager
          />
        }
      >
        <div className="mt-8 flex flex-wrap gap-3">
          <a href="/book" data-booking className="btn-primary">
            {t('common.book_consultation')}
          </a>
          <a href="/pricing" className="btn-ghost">
            {t('nav.pricing')}
          </a>
        </div>
      </PageHero>
      <section className="py-12">
        <div className="container grid gap-10 lg:grid-cols-[1.5fr_1fr]">
          <div className="space-y-4 text-lg leading-relaxed text-ink-700">
            {t.data<string[]>(`${base}.intro`).map((p, i) => (
              <p key={i} className="m-0">
                {p}
              </p>
            ))}
          </div>
          <aside aria-labelledby="audience-title" className="card self-start bg-brand-50">
            <h2 id="audience-title" className="m-0 text-xl font-bold">
              {t('services.audience_title')}
            </h2>
            <CheckList items={t.data<string[]>(`${base}.audience`)} className="mt-4" />
          </aside>
        </div>
      </section>
      <Section id="deliverables" title={t('services.deliverables_title')} className="bg-slate-50">
        <CheckList
          items={t.data<string[]>(`${base}.deliverables`)}
          className="grid gap-4 md:grid-cols-2 md:space-y-0"
        />
      </Section>
      <Section id="process" title={t('services.process_title')}>
        <ol className="m-0 grid list-none gap-6 p-0 sm:grid-cols-2 lg:grid-cols-4">
          {t.data<Step[]>(`${base}.process`).map((step, i) => (
            <li key={i} className="card">
              <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-600 font-bold text-white">
                {i + 1}
              </span>
              <h3 className="m-0 mt-4 text-lg font-bold">{step.title}</h3>
              <p className="m-0 mt-2 text-ink-600">{step.text}</p>
            </li>
          ))}
        </ol>
      </Section>
      <Section id="outcomes" title={t('services.outcomes_title')} className="bg-slate-50">
        <CheckList items={t.data<string[]>(`${base}.outcomes`)} className="max-w-3xl text-lg" />
      </Section>
      <Section id="faqs" title={t('services.faqs_title')}>
        <div className="max-w-3xl">
          <Faqs items={t.data<{ q: string; a: string }[]>(`${base}.faqs`)} />
        </div>
      </Section>
      <Section id="related" title={t('services.related_title')} className="bg-slate-50">
        <ul className="m-0 grid list-none gap-6 p-0 md:grid-cols-3">
          {service.related.map((slug) => (
            <ServiceCard key={slug} service={findService(slug)!} />
          ))}
        </ul>
      </Section>
      <CtaBand title={t(`${base}.cta_title`)} text={t(`${base}.cta_text`)} />
    </>
  )
}
