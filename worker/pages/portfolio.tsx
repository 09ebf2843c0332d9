import { ContentPicture, CtaBand, PageHero } from '../components/page-parts'
import type { CaseStudy } from '../content/live'
import { usePage } from '../render/context'

export function PortfolioPage({ cases }: { cases: CaseStudy[] }) {
  const { t } = usePage()
  return (
    <>
      <PageHero
        title={t('portfolio.title')}
        subtitle={t('portfolio.subtitle')}
        crumbs={[{ label: t('nav.portfolio') }]}
      />
      <section className="py-14">
        <div className="container">
          <ul className="m-0 grid list-none gap-8 p-0 lg:grid-cols-2">
            {cases.map((item, i) => {
              const c = item.texts
              return (
                <li key={item.slug}>
                  <article className="card flex h-full flex-col">
                    {/* the first row is in the first screen on a desktop */}
                    <ContentPicture
                      cover={item.shared.cover}
                      coverAlt={c.cover_alt}
                      artwork={item.shared.artwork}
                      artworkAlt={t('portfolio.image_alt', { title: c.title })}
                      sizes="case"
                      eager={i < 2}
                      high={i === 0}
                      className="mb-5"
                    />
                    <p className="m-0 flex flex-wrap gap-2 text-xs font-semibold">
                      <span className="rounded-full bg-brand-50 px-3 py-1 text-brand-700">
                        {c.platform}
                      </span>
                      <span className="rounded-full bg-slate-100 px-3 py-1 text-ink-700">
                        {c.service}
                      </span>
                    </p>
                    <h2 className="m-0 mt-4 text-2xl font-bold">{c.title}</h2>
                    <p className="m-0 mt-1 text-ink-600">{c.client}</p>
                    <dl className="m-0 mt-5 grid grid-cols-3 gap-3">
                      {c.results.map((r) => (
                        <div
                          key={r.label}
                          className="flex flex-col-reverse rounded-xl bg-brand-50 p-3 text-center"
                        >
                          <dt className="mt-1 text-xs text-ink-700">{r.label}</dt>
                          <dd className="m-0 text-xl font-extrabold text-brand-700" dir="ltr">
                            {r.value}
                          </dd>
                        </div>
                      ))}
                    </dl>
                    <h3 className="m-0 mt-5 text-sm font-semibold uppercase tracking-wider text-ink-600">
                      {t('portfolio.challenge_label')}
                    </h3>
                    <p className="m-0 mt-1 text-ink-700">{c.challenge}</p>
                    <h3 className="m-0 mt-4 text-sm font-semibold uppercase tracking-wider text-ink-600">
                      {t('portfolio.approach_label')}
                    </h3>
                    <p className="m-0 mt-1 text-ink-700">{c.approach}</p>
                    <figure className="m-0 mt-5 border-s-4 border-accent-400 ps-4">
                      <blockquote className="m-0 italic text-ink-700">“{c.quote}”</blockquote>
                      <figcaption className="mt-1 text-sm text-ink-600">
                        {c.quote_author}
                      </figcaption>
                    </figure>
                  </article>
                </li>
              )
            })}
          </ul>
        </div>
      </section>
      <CtaBand title={t('home.cta_title')} text={t('home.cta_text')} />
    </>
  )
}
