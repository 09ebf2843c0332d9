import { Icon } from '../components/page-icon'
import GuidePicker from '../../client/islands/guide-picker'
import TestimonialCarousel, { type Testimonial } from '../../client/islands/testimonial-carousel'
import { dirOf } from '../../client/lib/languages'
import { formatDecimal, formatNumber } from '../i18n/format'
import { errorTexts } from '../components/form-texts'
import { Section } from '../components/page-parts'
import { findService, HOME_SERVICES } from '../data/services'
import { usePage } from '../render/context'

// Rendered in the streamed shell, so React emits a preload link for each (SPEC §9). WebP at 1×
// and 2× the layout width, made by `npm run hero-images` from the artwork in scripts/hero-art/.
const HERO_IMAGES = [
  {
    name: 'hero-dashboard',
    width: 560,
    height: 400,
    // Full width of the container below 600 px, then its 560 px.
    sizes: '(min-width: 600px) 560px, calc(100vw - 2rem)',
    key: 'hero.image_dashboard',
    className: 'h-auto w-full rounded-2xl shadow-2xl',
  },
  {
    name: 'hero-campaign',
    width: 240,
    height: 150,
    sizes: '240px',
    key: 'hero.image_campaign',
    className: 'absolute -bottom-8 -start-4 hidden h-auto w-[42%] rounded-xl shadow-xl sm:block',
  },
  {
    name: 'hero-orders',
    width: 240,
    height: 120,
    sizes: '240px',
    key: 'hero.image_orders',
    className:
      'absolute -top-6 -end-4 hidden h-auto w-[40%] rounded-xl shadow-xl sm:block lg:end-0',
  },
] as const

const heroSrc = (name: string, width: number) => `/images/${name}-${width}.webp`

// The hero's second row: the other ways in, as underlined text (44 px high, a full touch target).
const heroLink =
  'inline-flex min-h-11 items-center font-semibold text-white underline decoration-2 underline-offset-4 hover:text-accent-400'

/** The three free guides (SPEC §3): file, download count and rating; text is in locales. */
const GUIDE_STATS = [
  { slug: 'invisible-business-mistakes', downloads: 15300, rating: 4.9 },
  { slug: 'social-media-growth-kit', downloads: 8300, rating: 4.8 },
  { slug: 'conversion-masterclass', downloads: 15200, rating: 4.9 },
]

const PROCESS = [
  { key: 'analysis', icon: 'search' },
  { key: 'strategy', icon: 'target' },
  { key: 'implementation', icon: 'rocket' },
  { key: 'scale', icon: 'chart' },
] as const

export function HomePage({ testimonials }: { testimonials: Testimonial[] }) {
  const { t } = usePage()
  return (
    <>
      <Hero />
      <Section id="welcome" eyebrow={t('home.welcome_eyebrow')} title={t('home.welcome_title')}>
        <p className="m-0 -mt-4 max-w-3xl text-lg leading-relaxed text-ink-700">
          {t('home.welcome_text')}
        </p>
      </Section>
      <Section
        id="process"
        eyebrow={t('home.process_eyebrow')}
        title={t('home.process_title')}
        subtitle={t('home.process_subtitle')}
        className="bg-slate-50"
      >
        <ol className="m-0 grid list-none gap-6 p-0 sm:grid-cols-2 lg:grid-cols-4">
          {PROCESS.map((step, i) => (
            <li key={step.key} className="card relative">
              <span className="flex items-center justify-between">
                <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-600 text-white">
                  <Icon name={step.icon} className="h-6 w-6" />
                </span>
                <span aria-hidden="true" className="text-3xl font-extrabold text-slate-500">
                  {String(i + 1).padStart(2, '0')}
                </span>
              </span>
              <h3 className="m-0 mt-4 text-xl font-bold">{t(`home.process.${step.key}.title`)}</h3>
              <p className="m-0 mt-2 text-ink-600">{t(`home.process.${step.key}.text`)}</p>
            </li>
          ))}
        </ol>
      </Section>
      <CoreServices />
      <Stats />
      <Section
        id="testimonials"
        eyebrow={t('home.testimonials_eyebrow')}
        title={t('home.testimonials_title')}
        className="bg-slate-50"
      >
        <Testimonials items={testimonials} />
      </Section>
      <Section
        id="guides"
        eyebrow={t('home.guides_eyebrow')}
        title={t('home.guides_title')}
        subtitle={t('home.guides_subtitle')}
      >
        <Guides />
      </Section>
      <ClosingCta />
    </>
  )
}

function Hero() {
  const { t } = usePage()
  return (
    <section className="relative overflow-hidden bg-gradient-to-br from-brand-900 via-brand-800 to-brand-600 text-white">
      <div className="container grid items-center gap-12 py-16 lg:grid-cols-2 lg:py-24">
        <div>
          <p className="m-0 inline-flex items-center gap-2 rounded-full bg-white/10 px-4 py-1.5 text-sm font-medium">
            <Icon name="star" filled className="h-4 w-4 text-accent-400" />
            {t('hero.badge')}
          </p>
          <h1 className="m-0 mt-6 text-4xl font-extrabold leading-tight tracking-tight sm:text-5xl lg:text-6xl">
            {t('hero.title')}
          </h1>
          <p className="m-0 mt-6 max-w-xl text-lg text-brand-100 sm:text-xl">
            {t('hero.subtitle')}
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <a href="/book" data-booking className="btn-accent">
              {t('hero.cta_primary')}
              <Icon name="arrow" />
            </a>
            <a href="/portfolio" className="btn-outline text-white">
              {t('hero.cta_secondary')}
            </a>
          </div>
          <div className="mt-4 flex flex-wrap items-center gap-x-6 gap-y-1">
            <a href="/book" data-booking className={heroLink}>
              {t('common.book_consultation')}
            </a>
            <a href="/contact" className={heroLink}>
              {t('common.talk_to_us')}
            </a>
            <button
              type="button"
              data-scroll-to="core-services"
              className={`${heroLink} border-0 bg-transparent p-0`}
            >
              {t('hero.view_services')}
            </button>
          </div>
        </div>
        <div className="relative mx-auto w-full max-w-[560px]">
          {HERO_IMAGES.map((img, i) => (
            <img
              key={img.name}
              src={heroSrc(img.name, img.width)}
              srcSet={`${heroSrc(img.name, img.width)} ${img.width}w, ${heroSrc(img.name, img.width * 2)} ${img.width * 2}w`}
              sizes={img.sizes}
              width={img.width}
              height={img.height}
              alt={t(img.key)}
              fetchPriority={i === 0 ? 'high' : undefined}
              className={img.className}
            />
          ))}
        </div>
      </div>
    </section>
  )
}

function CoreServices() {
  const { t } = usePage()
  return (
    <Section
      id="core-services"
      eyebrow={t('home.services_eyebrow')}
      title={t('home.services_title')}
      subtitle={t('home.services_subtitle')}
    >
      <ul className="m-0 grid list-none gap-6 p-0 sm:grid-cols-2 lg:grid-cols-3">
        {HOME_SERVICES.map((slug) => {
          const service = findService(slug)!
          return (
            <li key={slug} className="card flex flex-col">
              <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                <Icon name={service.icon} className="h-6 w-6" />
              </span>
              <h3 className="m-0 mt-4 text-xl font-bold">
                {t(`services.items.${service.key}.name`)}
              </h3>
              <p className="m-0 mt-2 flex-1 text-ink-600">
                {t(`services.items.${service.key}.short`)}
              </p>
              <a
                href={`/services/${slug}`}
                className="mt-4 inline-flex items-center gap-1 font-semibold text-brand-700 no-underline hover:underline"
              >
                {t('common.learn_more')}
                <span className="sr-only">: {t(`services.items.${service.key}.name`)}</span>
                <Icon name="arrow" className="h-4 w-4" />
              </a>
            </li>
          )
        })}
        <li className="flex flex-col justify-center rounded-2xl bg-brand-700 p-6 text-white">
          <p className="m-0 text-lg font-semibold">{t('services.subtitle')}</p>
          <a href="/services" className="btn-accent mt-5 self-start">
            {t('home.explore_services')}
            <Icon name="arrow" />
          </a>
        </li>
      </ul>
    </Section>
  )
}

function Stats() {
  const { t } = usePage()
  const stats = [
    { value: '500+', key: 'clients' },
    { value: '$50M+', key: 'revenue' },
    { value: '98%', key: 'satisfaction' },
    { value: '4.9/5', key: 'rating' },
  ] as const
  return (
    <section aria-labelledby="stats-title" className="bg-brand-900 py-14 text-white">
      <div className="container">
        <h2 id="stats-title" className="m-0 text-center text-2xl font-bold">
          {t('home.stats_title')}
        </h2>
        <dl className="m-0 mt-8 grid grid-cols-2 gap-6 lg:grid-cols-4">
          {stats.map((s) => (
            <div
              key={s.key}
              className="flex flex-col-reverse items-center rounded-2xl bg-white/5 p-6 text-center"
            >
              <dt className="mt-1 text-brand-100">{t(`home.stats.${s.key}`)}</dt>
              <dd className="m-0 text-4xl font-extrabold text-accent-400" dir="ltr">
                {s.value}
              </dd>
            </div>
          ))}
        </dl>
        <p className="m-0 mt-8 text-center">
          <a href="/portfolio" className="btn-outline text-white">
            {t('common.view_portfolio')}
          </a>
        </p>
      </div>
    </section>
  )
}

function Testimonials({ items }: { items: Testimonial[] }) {
  const { t, lang } = usePage()
  return (
    <TestimonialCarousel
      label={t('home.testimonials_label')}
      prevLabel={t('common.previous')}
      nextLabel={t('common.next')}
      ratingLabel={t('home.rating_label', { rating: 5 })}
      slideLabels={items.map((_, i) => t('home.slide_label', { n: i + 1, total: items.length }))}
      items={items}
      dir={dirOf(lang)}
    />
  )
}

function Guides() {
  const { t, lang, challenge } = usePage()
  const texts = t.data<
    {
      title: string
      category: string
      description: string
      benefits: string[]
      preview: string
    }[]
  >('home.guides')
  return (
    <GuidePicker
      challenge={challenge}
      guides={texts.map((g, i) => ({
        ...g,
        slug: GUIDE_STATS[i].slug,
        downloads: t.plural('home.guide_downloads', GUIDE_STATS[i].downloads, {
          n: formatNumber(lang, GUIDE_STATS[i].downloads) + '+',
        }),
        rating: formatDecimal(lang, GUIDE_STATS[i].rating),
        ratingLabel: t('home.rating_label', { rating: formatDecimal(lang, GUIDE_STATS[i].rating) }),
      }))}
      labels={{
        select: t('home.guide_select'),
        selected: t('home.guide_selected'),
        benefits: t('home.guide_benefits'),
        preview: t('home.guide_preview'),
        formTitle: t('home.guide_form_title'),
        name: t('home.guide_name'),
        email: t('home.guide_email'),
        submit: t('home.guide_submit'),
        submitting: t('forms.sending'),
        privacy: t('home.guide_privacy'),
        honeypot: t('forms.honeypot'),
        thanksTitle: t('home.guide_thanks_title'),
        thanksText: t('home.guide_thanks_text'),
        downloadAgain: t('home.guide_download_again'),
      }}
      notices={{
        ...errorTexts(t),
        missingText: t('notices.missing_guide_fields'),
        downloadTitle: t('notices.download_title'),
        downloadText: t('notices.download_text', { title: '{{title}}' }),
      }}
    />
  )
}

function ClosingCta() {
  const { t } = usePage()
  return (
    <section
      aria-labelledby="closing-title"
      className="bg-gradient-to-br from-brand-700 to-brand-900 text-white"
    >
      <div className="container py-16 text-center">
        <h2 id="closing-title" className="m-0 text-3xl font-extrabold sm:text-4xl">
          {t('home.cta_title')}
        </h2>
        <p className="mx-auto m-0 mt-4 max-w-2xl text-lg text-brand-100">{t('home.cta_text')}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <a href="/contact" className="btn-outline text-white">
            {t('common.talk_to_us')}
          </a>
          <a href="/book" data-booking className="btn-accent">
            {t('home.cta_grow')}
          </a>
          <a href="/about" className="btn-outline text-white">
            {t('home.cta_about')}
          </a>
        </div>
      </div>
    </section>
  )
}
