import { Hono, type Context, type Handler } from 'hono'
import { consentOf } from '../render/consent'
import {
  articlePage,
  articles,
  caseStudies,
  categoriesOf,
  currentCard,
  plansAndQuestions,
  questions,
  relatedTo,
  testimonials,
  type CaseStudy,
  type Plan,
  type Question,
} from '../content/live'
import { findService, SERVICE_ALIASES } from '../data/services'
import type { AppEnv } from '../env'
import {
  blogPosting,
  breadcrumbs,
  faqPage,
  planOffers,
  service,
  website,
  type PageImage,
} from '../seo'
import { accountFactors, enrolment } from '../auth/mfa'
import { pendingMfa } from '../auth/second-step'
import { serveJoinPage } from '../auth/join'
import { signedInOnly } from '../auth/session'
import { PAGE_ROUTES, routeOf, type PagePath, type PageRoute } from '../routes'
import { edgeCache } from '../render/edge-cache'
import { titled } from '../render/context'
import { errorPage } from './error-page'
import { AboutPage } from './about'
import { AccountPage } from './account'
import { ConfirmPage, renderAuthPage, ResetPage } from './auth'
import { BlogListPage, BlogPostPage } from './blog'
import { BookPage, serveInvitation, serveManageBooking } from './book'
import { currentSlots } from '../services/bookings'
import { readAvailability } from '../booking/slots'
import { ContactPage } from './contact'
import { FaqPage } from './faq'
import { serveGuide } from './guide'
import { HomePage } from './home'
import { LegalPage, type LegalKey } from './legal'
import { PortfolioPage } from './portfolio'
import {
  serveConfirmPage,
  serveDataLinkPage,
  serveDataRequestPage,
  serveUnsubscribePage,
} from './privacy'
import { PricingPage } from './pricing'
import { ServicePage, ServicesPage } from './services'

export const pages = new Hono<AppEnv>()

/**
 * A page with a fixed title and description in the route table, with its breadcrumb. `load`
 * reads what it shows (the desk's content) before the render; `faqs` are its FAQPage's.
 */
function simplePage<Data = undefined>(
  path: PagePath,
  Page: (props: { data: NoInfer<Data> }) => React.JSX.Element,
  extra: {
    image?: PageImage
    load?: (c: Context<AppEnv>) => Promise<Data>
    faqs?: (data: NoInfer<Data>) => Faq[]
    /** Other schema.org nodes of what it shows. */
    describe?: (c: Context<AppEnv>, data: NoInfer<Data>) => Record<string, unknown>[]
  } = {},
): Handler<AppEnv> {
  const route = routeOf(path)
  return async (c) => {
    const name = c.var.t(route.titleKey!)
    const data = (extra.load ? await extra.load(c) : undefined) as Data
    return c.render(<Page data={data} />, {
      title: titled(c, name),
      description: c.var.t(route.descriptionKey!),
      image: extra.image,
      jsonLd: [
        breadcrumbs(c, [{ name, path }]),
        ...(extra.faqs ? [faqPage(extra.faqs(data))] : []),
        ...(extra.describe ? extra.describe(c, data) : []),
      ],
    })
  }
}

type Faq = { q: string; a: string }

function legalPage(path: PagePath, key: LegalKey): Handler<AppEnv> {
  const route = routeOf(path)
  return (c) => {
    const name = c.var.t(route.titleKey!)
    return c.render(<LegalPage page={key} consent={consentOf(c)} />, {
      title: titled(c, name),
      description: c.var.t(route.descriptionKey!),
      jsonLd: [breadcrumbs(c, [{ name, path }])],
    })
  }
}

/** Each route of the table with its handler; a route without one does not compile. */
const handlers: Record<PagePath, Handler<AppEnv>> = {
  '/': async (c) =>
    c.render(<HomePage testimonials={(await testimonials(c)).map((i) => i.texts)} />, {
      title: c.var.t('meta.home_title'),
      description: c.var.t('meta.home_description'),
      image: 'home',
      jsonLd: [website(c)],
    }),
  '/about': simplePage('/about', AboutPage),
  '/services': simplePage('/services', ServicesPage, { image: 'services' }),
  '/portfolio': simplePage<CaseStudy[]>(
    '/portfolio',
    ({ data }) => <PortfolioPage cases={data} />,
    {
      load: (c) => caseStudies(c),
    },
  ),
  '/pricing': simplePage<{ plans: Plan[]; faqs: Question[] }>(
    '/pricing',
    ({ data }) => <PricingPage plans={data.plans} faqs={data.faqs} />,
    {
      load: async (c) => {
        const { plans, questions } = await plansAndQuestions(c)
        return { plans, faqs: questions.filter((q) => q.shared.group === 'pricing') }
      },
      faqs: (data) => data.faqs.map((q) => q.texts),
      describe: (c, data) => [
        planOffers(
          c,
          data.plans.map((p) => ({
            name: p.texts.name,
            description: p.texts.for,
            features: p.texts.features,
            price: p.shared.price,
          })),
        ),
      ],
    },
  ),
  '/faq': simplePage<Question[]>('/faq', ({ data }) => <FaqPage questions={data} />, {
    load: async (c) => (await questions(c)).filter((q) => q.shared.group !== 'pricing'),
    faqs: (data) => data.map((q) => q.texts),
  }),
  '/contact': simplePage('/contact', ContactPage),
  '/privacy-policy': legalPage('/privacy-policy', 'privacy'),
  '/terms-of-service': legalPage('/terms-of-service', 'terms'),
  '/refund-policy': legalPage('/refund-policy', 'refund'),

  '/auth': (c) => {
    const asked = c.req.query('mode')
    const mode =
      asked === 'sign-up' ||
      asked === 'forgot' ||
      asked === 'magic' ||
      (asked === 'mfa' && pendingMfa(c))
        ? asked
        : 'sign-in'
    return renderAuthPage(c, {
      mode,
      error: c.req.query('error'),
      email: c.req.query('email'),
      next: c.req.query('next'),
      sent: c.req.query('sent') === '1',
    })
  },

  '/account': async (c) => {
    c.header('Cache-Control', 'no-store')
    const page = (
      <AccountPage
        error={c.req.query('error')}
        errorIn={c.req.query('in')}
        factors={await accountFactors(c)}
        newEmail={c.var.account?.new_email}
        enrolling={enrolment(c)}
        deleteCodeSent={c.req.query('delete') === 'sent'}
        afterReset={c.req.query('reset') === '1'}
      />
    )
    return c.render(page, {
      title: titled(c, c.var.t('auth.account')),
      description: c.var.t('auth.meta_description'),
    })
  },

  '/auth/confirm': (c) => {
    c.header('Cache-Control', 'no-store')
    const asked = c.req.query('type')
    const type = asked === 'signup' || asked === 'email_change' ? asked : 'magiclink'
    return c.render(<ConfirmPage tokenHash={c.req.query('token_hash') ?? ''} type={type} />, {
      title: titled(
        c,
        c.var.t(type === 'email_change' ? 'auth.confirm_change_title' : 'auth.confirm_title'),
      ),
      description: c.var.t('auth.meta_description'),
    })
  },

  '/join': serveJoinPage,

  '/auth/reset': (c) => {
    const token = c.req.query('token') ?? ''
    return c.render(<ResetPage token={token} error={c.req.query('error')} />, {
      title: titled(c, c.var.t('auth.reset_title')),
      description: c.var.t('auth.meta_description'),
    })
  },

  '/services/:slug': (c) => {
    const slug = c.req.param('slug') ?? ''
    const found = findService(slug)
    if (!found) return c.notFound()
    const { t } = c.var
    const base = `services.items.${found.key}` as const
    const path = `/services/${found.slug}`
    const name = t(`${base}.name`)
    return c.render(<ServicePage service={found} />, {
      title: titled(c, name),
      description: t(`${base}.short`),
      canonicalPath: SERVICE_ALIASES[slug] ? path : undefined,
      image: 'services',
      jsonLd: [
        breadcrumbs(c, [
          { name: t('services.title'), path: '/services' },
          { name, path },
        ]),
        service(c, { name, description: t(`${base}.tagline`), path }),
        faqPage(t.data<Faq[]>(`${base}.faqs`)),
      ],
    })
  },

  '/blog': async (c) => {
    const { t } = c.var
    const list = await articles(c)
    const category = categoriesOf(list).find((cat) => cat.key === c.req.query('category'))
    const label = category?.label
    return c.render(<BlogListPage articles={list} category={category?.key} />, {
      title: titled(c, label ? `${label} · ${t('blog.title')}` : t('blog.title')),
      description: t('blog.meta_description'),
      image: 'blog',
      // a filtered list is a view of /blog, not a page of its own
      canonicalPath: '/blog',
      jsonLd: [breadcrumbs(c, [{ name: t('blog.title'), path: '/blog' }])],
    })
  },

  '/blog/:slug': async (c) => {
    const { t, lang } = c.var
    const slug = c.req.param('slug') ?? ''
    const { article: a, list } = await articlePage(c, slug)
    if (!a) return c.notFound()
    const path = `/blog/${a.slug}`
    // its own card (drawn in the desk, or for the articles from before it); else the blog's
    const card = currentCard(a)
    const image: PageImage = card
      ? { media: card.name }
      : a.shared.artwork
        ? `blog/${a.slug}`
        : 'blog'
    const published = a.published.slice(0, 10)
    const updated = a.shared.updated ?? published
    return c.render(<BlogPostPage a={a} related={relatedTo(a.slug, a.shared.category, list)} />, {
      title: titled(c, a.texts.title),
      description: a.texts.description,
      image,
      ogType: 'article',
      languages: a.langs,
      contentLang: a.lang,
      article: {
        published,
        modified: updated,
        section: a.texts.category_label,
      },
      // an article shown in English under another language's address is not that page
      noindex: a.lang !== lang,
      jsonLd: [
        breadcrumbs(c, [
          { name: t('blog.title'), path: '/blog' },
          { name: a.texts.title, path },
        ]),
        blogPosting(c, {
          ...a.texts,
          inLanguage: a.lang,
          category: a.texts.category_label,
          path,
          image,
          cover: a.shared.cover,
          published,
          updated,
        }),
      ],
    })
  },

  '/guides/:slug': serveGuide,
  '/privacy/request': serveDataRequestPage,
  '/privacy/data': serveDataLinkPage,
  '/subscribe/confirm': serveConfirmPage,
  '/unsubscribe': serveUnsubscribePage,

  '/book': async (c) => {
    const embed = c.req.query('embed') === '1'
    let free: { slots: string[]; timeZone: string; lengthMinutes: number }
    try {
      free = await currentSlots(c)
    } catch (err) {
      // without the bookings table the page still offers the other ways to reach us
      console.error('D1 read failed', err)
      const { timeZone, lengthMinutes } = readAvailability(c.env)
      free = { slots: [], timeZone, lengthMinutes }
    }
    const name = c.var.t('booking.title')
    return c.render(
      <BookPage
        slots={free.slots}
        agencyTimeZone={free.timeZone}
        lengthMinutes={free.lengthMinutes}
        embed={embed}
      />,
      {
        title: titled(c, name),
        description: c.var.t('booking.meta_description'),
        bare: embed,
        canonicalPath: '/book',
        jsonLd: [breadcrumbs(c, [{ name, path: '/book' }])],
      },
    )
  },
  '/book/:file{[0-9a-f-]+\\.ics}': serveInvitation,
  '/book/manage': serveManageBooking,
}

for (const route of PAGE_ROUTES) {
  const handler = handlers[route.path]
  const listed: Handler<AppEnv> = (c, next) => {
    // the table says which pages search engines may list; the renderer writes the robots meta
    if (!route.indexable) c.set('noindex', true)
    if ('quiet' in route && route.quiet) c.set('quiet', true)
    return handler(c, next)
  }
  // guards belong to the routes that need them, never to a shared prefix
  if ('signedIn' in route && route.signedIn) pages.get(route.path, signedInOnly, listed)
  else if ('cache' in route)
    pages.get(route.path, edgeCache(route.cache as PageRoute['cache']), listed)
  else pages.get(route.path, listed)
}

/** The site's page for an address it does not have (pages/error-page.tsx). */
export const renderNotFound = (c: Context<AppEnv>) => errorPage(c, 404)
