import { SERVICES } from '../worker/data/services'

/** The nine articles of SPEC §2 (worker/data/blog.ts needs the build's virtual module). */
export const ARTICLES = [
  'amazon-listings-guide',
  'gmb-optimization-guide',
  'amazon-sales-strategies',
  'social-media-trends',
  'email-marketing-automation',
  'shopify-seo-guide',
  'affiliate-marketing-guide',
  'tiktok-shop-guide',
  'sales-funnels-guide',
]

/**
 * Every page a visitor can reach (SPEC §2), plus the booking page, the sign-in page's other
 * modes, the data request form, a broken e-mailed link and a missing page: what the whole-site checks (descriptions, markup, layout) go over.
 */
export const PAGE_PATHS = [
  '/',
  '/about',
  '/services',
  '/services/ecommerce',
  ...SERVICES.map((s) => `/services/${s.slug}`),
  '/portfolio',
  '/contact',
  '/pricing',
  '/auth',
  '/auth?mode=sign-up',
  '/auth?mode=magic',
  '/auth?mode=forgot',
  '/faq',
  '/blog',
  '/blog?category=amazon',
  ...ARTICLES.map((slug) => `/blog/${slug}`),
  '/privacy-policy',
  '/terms-of-service',
  '/refund-policy',
  '/book',
  '/privacy/request',
  '/privacy/request?error=email&email=not-an-address',
  '/unsubscribe?token=a-link-that-does-not-work',
  '/no-such-page',
]

/** `path` in language `lang` (English is the bare path). */
export const inLang = (path: string, lang: string) =>
  lang === 'en' ? path : `${path}${path.includes('?') ? '&' : '?'}lang=${lang}`
