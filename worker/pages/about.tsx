import { Icon } from '../components/page-icon'
import { Artwork, CheckList, CtaBand, PageHero, Section } from '../components/page-parts'
import { usePage } from '../render/context'

type Item = { title: string; text: string }
type Member = { name: string; role: string; bio: string }

export function AboutPage() {
  const { t } = usePage()
  return (
    <>
      <PageHero
        title={t('about.title')}
        subtitle={t('about.subtitle')}
        crumbs={[{ label: t('nav.about') }]}
      >
        <div className="mt-8 flex flex-wrap gap-3">
          <a href="/portfolio" className="btn-primary">
            {t('common.view_portfolio')}
          </a>
          <a href="/contact" className="btn-ghost">
            {t('common.contact_us')}
          </a>
        </div>
      </PageHero>
      <Section id="story" title={t('about.story_title')}>
        <div className="grid gap-10 lg:grid-cols-[1.4fr_1fr]">
          <div className="space-y-4 text-lg leading-relaxed text-ink-700">
            {t.data<string[]>('about.story').map((p, i) => (
              <p key={i} className="m-0">
                {p}
              </p>
            ))}
          </div>
          <div className="space-y-6 self-start">
            <Artwork name="about-team" alt={t('about.image_alt')} />
            <aside className="card bg-brand-50">
              <h3 className="m-0 text-xl font-bold">{t('about.mission_title')}</h3>
              <p className="m-0 mt-3 text-ink-700">{t('about.mission')}</p>
            </aside>
          </div>
        </div>
      </Section>
      <Section id="values" title={t('about.values_title')} className="bg-slate-50">
        <ul className="m-0 grid list-none gap-6 p-0 sm:grid-cols-2 lg:grid-cols-4">
          {t.data<Item[]>('about.values').map((v) => (
            <li key={v.title} className="card">
              <Icon name="check" className="h-6 w-6 text-brand-600" />
              <h3 className="m-0 mt-3 text-lg font-bold">{v.title}</h3>
              <p className="m-0 mt-2 text-ink-600">{v.text}</p>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="team" title={t('about.team_title')}>
        <ul className="m-0 grid list-none gap-6 p-0 sm:grid-cols-2 lg:grid-cols-4">
          {t.data<Member[]>('about.team').map((m) => (
            <li key={m.name} className="card text-center">
              <span
                aria-hidden="true"
                className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-brand-100 text-xl font-bold text-brand-800"
              >
                {m.name
                  .split(' ')
                  .map((w) => w[0])
                  .join('')}
              </span>
              <h3 className="m-0 mt-4 text-lg font-bold">{m.name}</h3>
              <p className="m-0 text-sm font-medium text-brand-700">{m.role}</p>
              <p className="m-0 mt-2 text-sm text-ink-600">{m.bio}</p>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="why" title={t('about.why_title')} className="bg-slate-50">
        <CheckList items={t.data<string[]>('about.why')} className="max-w-3xl text-lg" />
      </Section>
      <CtaBand title={t('home.cta_title')} text={t('home.cta_text')} />
    </>
  )
}
