import { Hono, type Context } from 'hono'
import { currentSlots, serveInvitation } from '../api/bookings'
import { consentOf } from '../api/consent'
import { article, categories, POSTS } from '../data/blog'
import { findService, SERVICE_ALIASES } from '../data/services'
import type { AppEnv } from '../env'
import { blogPosting, breadcrumbs, faqPage, service, website, type PageImage } from '../seo'
import { accountFactors, enrolment, pendingMfa } from '../auth/mfa'
import { signedInOnly } from '../auth/session'
import { AboutPage } from './about'
import { AccountPage } from './account'
import { AuthPage, ConfirmPage, ResetPage } from './auth'
import { BlogListPage, BlogPostPage } from './blog'
import { BookPage } from './book'
import { ContactPage } from './contact'
import { FaqPage } from './faq'
import { serveGuide } from './guide'
import { HomePage } from './home'
import { LEGAL_PAGES, LegalPage } from './legal'
import { NotFoundPage } from './not-found'
import { PortfolioPage } from './portfolio'
import { PricingPage } from './pricing'
import { ServicePage, ServicesPage } from './services'

export const pages = new Hono<AppEnv>()

/** Longest title search results show whole (html-validate's `long-title` rule, too). */
export const TITLE_MAX = 70

/** "<page title> | <site name>" for every page but home; the title alone where that is too long. */
function titled(c: Context<AppEnv>, title: string) {
  const full = `${title} | ${c.var.t('meta.title_suffix')}`
  return full.length <= TITLE_MAX ? full : title
}

pages.get('/', (c) =>
  c.render(<HomePage />, {
    title: c.var.t('meta.home_title'),
    description: c.var.t('meta.home_description'),
    image: 'home',
    jsonLd: [website(c)],
  }),
)

type Faq = { q: string; a: string }

/** Pages with one template each: what they show, their texts, card and structured data. */
const simple: Record<
  string,
  {
    Page: () => React.JSX.Element
    key: string
    image?: PageImage
    faqs?: (c: Context<AppEnv>) => Faq[]
  }
> = {
  '/about': { Page: AboutPage, key: 'about' },
  '/services': { Page: ServicesPage, key: 'services', image: 'services' },
  '/portfolio': { Page: PortfolioPage, key: 'portfolio' },
  '/pricing': {
    Page: PricingPage,
    key: 'pricing',
    faqs: (c) => c.var.t.data<Faq[]>('pricing.faqs'),
  },
  '/faq': {
    Page: FaqPage,
    key: 'faq',
    faqs: (c) => c.var.t.data<{ items: Faq[] }[]>('faq.groups').flatMap((g) => g.items),
  },
  '/contact': { Page: ContactPage, key: 'contact' },
}
for (const [path, { Page, key, image, faqs }] of Object.entries(simple)) {
  pages.get(path, (c) => {
    const name = c.var.t(`${key}.title`)
    return c.render(<Page />, {
      title: titled(c, name),
      description: c.var.t(`${key}.meta_description`),
      image,
      jsonLd: [breadcrumbs(c, [{ name, path }]), ...(faqs ? [faqPage(faqs(c))] : [])],
    })
  })
}

pages.get('/auth', (c) => {
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
})

pages.get('/account', signedInOnly, async (c) => {
  c.header('Cache-Control', 'no-store')
  const page = (
    <AccountPage
      error={c.req.query('error')}
      factors={await accountFactors(c)}
      enrolling={enrolment(c)}
    />
  )
  return c.render(page, {
    title: titled(c, c.var.t('auth.account')),
    description: c.var.t('auth.meta_description'),
    noindex: true,
  })
})

pages.get('/auth/confirm', (c) => {
  c.header('Cache-Control', 'no-store')
  return c.render(<ConfirmPage tokenHash={c.req.query('token_hash') ?? ''} />, {
    title: titled(c, c.var.t('auth.confirm_title')),
    description: c.var.t('auth.meta_description'),
    noindex: true,
  })
})

pages.get('/auth/reset', (c) => {
  const token = c.req.query('token') ?? ''
  return c.render(<ResetPage token={token} error={c.req.query('error')} />, {
    title: titled(c, c.var.t('auth.reset_title')),
    description: c.var.t('auth.meta_description'),
    noindex: true,
  })
})

pages.get('/services/:slug', (c) => {
  const slug = c.req.param('slug')
  const found = findService(slug)
  if (!found) return c.notFound()
  const { t } = c.var
  const base = `services.items.${found.key}`
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
})

pages.get('/blog', (c) => {
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
})

pages.get('/blog/:slug', (c) => {
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
})

for (const [slug, key] of Object.entries(LEGAL_PAGES)) {
  pages.get(`/${slug}`, (c) => {
    const name = c.var.t(`legal.${key}.title`)
    return c.render(<LegalPage page={key} consent={consentOf(c)} />, {
      title: titled(c, name),
      description: c.var.t(`legal.${key}.description`),
      jsonLd: [breadcrumbs(c, [{ name, path: `/${slug}` }])],
    })
  })
}

pages.get('/guides/:slug', serveGuide)

pages.get('/book', async (c) => {
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
})
pages.get('/book/:file{[0-9a-f-]+\\.ics}', serveInvitation)

export function renderNotFound(c: Context<AppEnv>) {
  c.status(404)
  return c.render(<NotFoundPage />, {
    title: titled(c, c.var.t('not_found.title')),
    description: c.var.t('not_found.text'),
    noindex: true,
  })
}
