import { Hono, type Context, type Handler } from 'hono'
import { consentOf } from '../render/consent'
import { article, categories, POSTS } from '../data/blog'
import { findService, SERVICE_ALIASES } from '../data/services'
import type { AppEnv } from '../env'
import { blogPosting, breadcrumbs, faqPage, service, website, type PageImage } from '../seo'
import { accountFactors, enrolment, pendingMfa } from '../auth/mfa'
import { signedInOnly } from '../auth/session'
import { PAGE_ROUTES, routeOf, type PagePath, type PageRoute } from '../routes'
import { edgeCache } from '../render/edge-cache'
import { AboutPage } from './about'
import { AccountPage } from './account'
import { AuthPage, ConfirmPage, ResetPage } from './auth'
import { BlogListPage, BlogPostPage } from './blog'
import { BookPage, serveInvitation } from './book'
import { currentSlots } from '../services/bookings'
import { ContactPage } from './contact'
import { FaqPage } from './faq'
import { serveGuide } from './guide'
import { HomePage } from './home'
import { LegalPage, type LegalKey } from './legal'
import { NotFoundPage } from './not-found'
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

/** Longest title search results show whole (html-validate's `long-title` rule, too). */
const TITLE_MAX = 70

/** "<page title> | <site name>" for every page but home; the title alone where that is too long. */
function titled(c: Context<AppEnv>, title: string) {
  const full = `${title} | ${c.var.t('meta.title_suffix')}`
  return full.length <= TITLE_MAX ? full : title
}

/** A page with a fixed title and description in the route table, with its breadcrumb. */
function simplePage(
  path: PagePath,
  Page: () => React.JSX.Element,
  extra: { image?: PageImage; faqs?: (c: Context<AppEnv>) => Faq[] } = {},
): Handler<AppEnv> {
  const route = routeOf(path)
  return (c) => {
    const name = c.var.t(route.titleKey!)
    return c.render(<Page />, {
      title: titled(c, name),
      description: c.var.t(route.descriptionKey!),
      image: extra.image,
      jsonLd: [breadcrumbs(c, [{ name, path }]), ...(extra.faqs ? [faqPage(extra.faqs(c))] : [])],
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
  '/': (c) =>
    c.render(<HomePage />, {
      title: c.var.t('meta.home_title'),
      description: c.var.t('meta.home_description'),
      image: 'home',
      jsonLd: [website(c)],
    }),
  '/about': simplePage('/about', AboutPage),
  '/services': simplePage('/services', ServicesPage, { image: 'services' }),
  '/portfolio': simplePage('/portfolio', PortfolioPage),
  '/pricing': simplePage('/pricing', PricingPage, {
    faqs: (c) => c.var.t.data<Faq[]>('pricing.faqs'),
  }),
  '/faq': simplePage('/faq', FaqPage, {
    faqs: (c) => c.var.t.data<{ items: Faq[] }[]>('faq.groups').flatMap((g) => g.items),
  }),
  '/contact': simplePage('/contact', ContactPage),
  '/privacy-policy': legalPage('/privacy-policy', 'privacy'),
  '/terms-of-service': legalPage('/terms-of-service', 'terms'),
  '/refund-policy': legalPage('/refund-policy', 'refund'),

  '/auth': (c) => {
    const { t } = c.var
    const asked = c.req.query('mode')
    const mode =
      asked === 'sign-up' ||
      asked === 'forgot' ||
      asked === 'magic' ||
      (asked === 'mfa' && pendingMfa(c))
        ? asked
        : 'sign-in'
    const titles = {
      'sign-in': t('auth.title'),
      'sign-up': t('auth.sign_up_title'),
      forgot: t('auth.forgot_title'),
      mfa: t('auth.mfa_title'),
      magic: t('auth.magic_title'),
    }
    const page = (
      <AuthPage
        mode={mode}
        error={c.req.query('error')}
        email={c.req.query('email')}
        next={c.req.query('next')}
        sent={c.req.query('sent') === '1'}
      />
    )
    return c.render(page, {
      title: titled(c, titles[mode]),
      description: t('auth.meta_description'),
      canonicalPath: '/auth',
      jsonLd: [breadcrumbs(c, [{ name: t('auth.title'), path: '/auth' }])],
    })
  },

  '/account': async (c) => {
    c.header('Cache-Control', 'no-store')
    const page = (
      <AccountPage
        error={c.req.query('error')}
        factors={await accountFactors(c)}
        enrolling={enrolment(c)}
        deleteCodeSent={c.req.query('delete') === 'sent'}
      />
    )
    return c.render(page, {
      title: titled(c, c.var.t('auth.account')),
      description: c.var.t('auth.meta_description'),
    })
  },

  '/auth/confirm': (c) => {
    c.header('Cache-Control', 'no-store')
    const type = c.req.query('type') === 'signup' ? 'signup' : 'magiclink'
    return c.render(<ConfirmPage tokenHash={c.req.query('token_hash') ?? ''} type={type} />, {
      title: titled(c, c.var.t('auth.confirm_title')),
      description: c.var.t('auth.meta_description'),
    })
  },

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

  '/blog': (c) => {
    const { t, lang } = c.var
    const category = categories().find((cat) => cat.key === c.req.query('category'))
    const label = category && article(category.post.slug, lang).category
    return c.render(<BlogListPage category={category?.key} />, {
      title: titled(c, label ? `${label} · ${t('blog.title')}` : t('blog.title')),
      description: t('blog.meta_description'),
      image: 'blog',
      // a filtered list is a view of /blog, not a page of its own
      canonicalPath: '/blog',
      jsonLd: [breadcrumbs(c, [{ name: t('blog.title'), path: '/blog' }])],
    })
  },

  '/blog/:slug': (c) => {
    const post = POSTS.find((p) => p.slug === c.req.param('slug'))
    if (!post) return c.notFound()
    const { t, lang } = c.var
    const a = article(post.slug, lang)
    const path = `/blog/${post.slug}`
    return c.render(<BlogPostPage post={post} />, {
      title: titled(c, a.title),
      description: a.description,
      image: `blog/${post.slug}`,
      ogType: 'article',
      jsonLd: [
        breadcrumbs(c, [
          { name: t('blog.title'), path: '/blog' },
          { name: a.title, path },
        ]),
        blogPosting(c, {
          ...a,
          path,
          image: `blog/${post.slug}`,
          published: post.published,
          updated: post.updated,
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
    let free: { slots: string[]; timeZone: string }
    try {
      free = await currentSlots(c)
    } catch (err) {
      // without the bookings table the page still offers the other ways to reach us
      console.error('D1 read failed', err)
      free = { slots: [], timeZone: 'Europe/London' }
    }
    const name = c.var.t('booking.title')
    return c.render(<BookPage slots={free.slots} agencyTimeZone={free.timeZone} embed={embed} />, {
      title: titled(c, name),
      description: c.var.t('booking.meta_description'),
      bare: embed,
      canonicalPath: '/book',
      jsonLd: [breadcrumbs(c, [{ name, path: '/book' }])],
    })
  },
  '/book/:file{[0-9a-f-]+\\.ics}': serveInvitation,
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
    pages.get(route.path, edgeCache((route.cache as PageRoute['cache'])?.query), listed)
  else pages.get(route.path, listed)
}

export function renderNotFound(c: Context<AppEnv>) {
  c.status(404)
  return c.render(<NotFoundPage />, {
    title: titled(c, c.var.t('not_found.title')),
    description: c.var.t('not_found.text'),
    noindex: true,
  })
}
