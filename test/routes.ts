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

/**
 * Every route a page's form posts to without JavaScript, the desk's included: a refusal there
 * is the site's error page (the fuzz and robustness tests).
 */
export const HTML_FORM_ROUTES = [
  '/auth/sign-in',
  '/auth/sign-up',
  '/auth/sign-out',
  '/auth/recover',
  '/auth/reset',
  '/auth/password',
  '/auth/magic-link',
  '/auth/magic-code',
  '/auth/confirm',
  '/auth/mfa',
  '/auth/factors',
  '/auth/factors/verify',
  '/auth/factors/remove',
  '/account/data',
  '/account/delete-code',
  '/account/delete',
  '/api/email-signup',
  '/api/newsletter',
  '/api/guide-requests',
  '/api/contact',
  '/api/bookings',
  '/api/bookings/manage/move',
  '/api/bookings/manage/cancel',
  '/subscribe/confirm',
  '/unsubscribe',
  '/privacy/request',
  '/privacy/data',
  '/desk/leads/contact/1',
  '/desk/mail/1/resend',
  '/desk/bookings/1/cancel',
  '/desk/bookings/1/move',
  '/desk/bookings/availability',
  '/desk/bookings/feed',
  '/desk/newsletters',
  '/desk/newsletters/1',
  '/desk/content/article/1',
  '/desk/content/article/1/restore',
]
