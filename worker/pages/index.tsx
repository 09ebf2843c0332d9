import { Hono, type Context } from 'hono'
import type { AppEnv } from '../env'
import { POSTS } from '../data/blog'
import { findService, SERVICE_ALIASES } from '../data/services'
import { AboutPage } from './about'
import { AuthPage } from './auth'
import { BookPage } from './book'
import { currentSlots, serveInvitation } from '../api/bookings'
import { BlogListPage, BlogPostPage } from './blog'
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

/** "<page title> | <site name>" for every page but home. */
const titled = (c: Context<AppEnv>, title: string) => `${title} | ${c.var.t('meta.title_suffix')}`

pages.get('/', (c) =>
  c.render(<HomePage />, {
    title: c.var.t('meta.home_title'),
    description: c.var.t('meta.home_description'),
  }),
)

const simple = {
  '/about': { Page: AboutPage, title: 'about.title', description: 'about.meta_description' },
  '/services': {
    Page: ServicesPage,
    title: 'services.title',
    description: 'services.meta_description',
  },
  '/portfolio': {
    Page: PortfolioPage,
    title: 'portfolio.title',
    description: 'portfolio.meta_description',
  },
  '/pricing': {
    Page: PricingPage,
    title: 'pricing.title',
    description: 'pricing.meta_description',
  },
  '/faq': { Page: FaqPage, title: 'faq.title', description: 'faq.meta_description' },
  '/contact': {
    Page: ContactPage,
    title: 'contact.title',
    description: 'contact.meta_description',
  },
  '/auth': { Page: AuthPage, title: 'auth.title', description: 'auth.meta_description' },
  '/blog': { Page: BlogListPage, title: 'blog.title', description: 'blog.meta_description' },
}
for (const [path, { Page, title, description }] of Object.entries(simple)) {
  pages.get(path, (c) =>
    c.render(<Page />, { title: titled(c, c.var.t(title)), description: c.var.t(description) }),
  )
}

pages.get('/services/:slug', (c) => {
  const slug = c.req.param('slug')
  const service = findService(slug)
  if (!service) return c.notFound()
  const base = `services.items.${service.key}`
  return c.render(<ServicePage service={service} />, {
    title: titled(c, c.var.t(`${base}.name`)),
    description: c.var.t(`${base}.short`),
    canonicalPath: SERVICE_ALIASES[slug] ? `/services/${service.slug}` : undefined,
  })
})

pages.get('/blog/:slug', (c) => {
  const post = POSTS.find((p) => p.slug === c.req.param('slug'))
  if (!post) return c.notFound()
  const base = `blog.posts.${post.key}`
  return c.render(<BlogPostPage post={post} />, {
    title: titled(c, c.var.t(`${base}.title`)),
    description: c.var.t(`${base}.summary`),
  })
})

for (const [slug, key] of Object.entries(LEGAL_PAGES)) {
  pages.get(`/${slug}`, (c) =>
    c.render(<LegalPage page={key} />, {
      title: titled(c, c.var.t(`legal.${key}.title`)),
      description: c.var.t(`legal.${key}.description`),
    }),
  )
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
  return c.render(<BookPage slots={free.slots} agencyTimeZone={free.timeZone} embed={embed} />, {
    title: titled(c, c.var.t('booking.title')),
    description: c.var.t('booking.meta_description'),
    bare: embed,
  })
})
pages.get('/book/:file{[0-9a-f-]+\\.ics}', serveInvitation)

export function renderNotFound(c: Context<AppEnv>) {
  c.status(404)
  return c.render(<NotFoundPage />, {
    title: titled(c, c.var.t('not_found.title')),
    description: c.var.t('not_found.text'),
  })
}
