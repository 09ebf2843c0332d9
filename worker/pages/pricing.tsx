import { CheckList, Faqs, PageHero, Section } from '../components/page-parts'
import type { Plan, Question } from '../content/live'
import { formatPrice } from '../i18n/format'
import { usePage } from '../render/context'

export function PricingPage({ plans, faqs }: { plans: Plan[]; faqs: Question[] }) {
  const { t, lang } = usePage()
  return (
    <>
      <PageHero
        title={t('pricing.title')}
        subtitle={t('pricing.subtitle')}
        crumbs={[{ label: t('nav.pricing') }]}
      />
      <section className="py-14">
        <div className="container">
          <ul className="m-0 grid list-none gap-6 p-0 md:grid-cols-2 xl:grid-cols-4">
            {plans.map((plan) => {
              const tier = plan.shared
              const text = plan.texts
              return (
                <li
                  key={plan.slug}
                  className={`card relative flex flex-col ${tier.popular ? 'border-2 border-brand-600 shadow-lg' : ''}`}
                >
                  {tier.popular && (
                    <p className="m-0 absolute -top-3 start-6 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white">
                      {t('pricing.popular')}
                    </p>
                  )}
                  <h2 className="m-0 text-xl font-bold">{text.name}</h2>
                  <p className="m-0 mt-1 min-h-12 text-sm text-ink-600">{text.for}</p>
                  <p className="m-0 mt-4">
                    {tier.price === null ? (
                      <span className="text-3xl font-extrabold">
                        {text.price_label || t('pricing.custom_price')}
                      </span>
                    ) : (
                      <>
                        <span className="text-4xl font-extrabold">
                          {formatPrice(lang, tier.price)}
                        </span>
                        <span className="text-ink-600">{t('pricing.per_month')}</span>
                      </>
                    )}
                  </p>
                  <CheckList items={text.features} className="mt-6 flex-1 text-sm" />
                  <a
                    href="/contact"
                    className={`mt-6 ${tier.popular ? 'btn-primary' : 'btn-ghost'}`}
                  >
                    {tier.price === null ? t('pricing.custom_cta') : t('pricing.cta')}
                    <span className="sr-only">: {text.name}</span>
                  </a>
                </li>
              )
            })}
          </ul>
          <p className="m-0 mt-8 text-center text-sm text-ink-600">{t('pricing.note')}</p>
        </div>
      </section>
      <Section id="pricing-faq" title={t('pricing.faq_title')} className="bg-slate-50">
        <div className="max-w-3xl">
          <Faqs items={faqs.map((f) => f.texts)} />
        </div>
      </Section>
    </>
  )
}
