import { PatternRouter } from 'hono/router/pattern-router'
import type { ContentTag } from './content/kinds'
import { SERVICES } from './data/services'
import type { MessageKey } from './i18n/translator'

/**
 * Every page of the site, once. The router (pages/index.tsx gives each path its handler, and
 * the type makes it give every one), the sitemap, the robots meta and the navigation are all
 * made from this table, so a page cannot be served without being listed, or listed in the
 * sitemap without being served. Data only: it sits below the pages and components that read it.
 */
export interface PageRoute {
  /** Hono path; `:param` routes list their concrete paths in `paths` for the sitemap. */
  path: string
  /** Title and meta description keys, where the page has fixed ones. */
  titleKey?: MessageKey
  descriptionKey?: MessageKey
  /** In the sitemap and open to search engines; otherwise `noindex`. */
  indexable: boolean
  /** The concrete paths of a `:param` route (the sitemap's entries; an article's come from D1). */
  paths?: () => string[]
  /**
   * A page the visitor came to for one errand (from an e-mailed link, to confirm, unsubscribe,
   * or see to their data): no splash, no welcome popup and no floating buttons over it.
   */
  quiet?: boolean
  /**
   * Opened from an e-mailed link whose address holds a secret (a token, in its query or its
   * path): the page has no tracker in it, and nothing it sends or links to gets a Referer
   * (`secretRouteOf`). Every link an e-mail carries a secret in must lead to such a route
   * (test/worker/secret-links.test.ts reads them all).
   */
  secretLink?: boolean
  /**
   * The same HTML for every anonymous visitor of a language: the edge keeps it
   * (render/edge-cache.ts). `query` names the parameters that change the page, `shows` the
   * kinds of content it shows: a change to one of them makes its copies misses
   * (content/generations.ts).
   */
  cache?: { query?: readonly string[]; shows?: readonly ContentTag[] }
  /** Only for a signed-in visitor: others are sent to sign in first. */
  signedIn?: boolean
  /** Where the page is linked from, with its label key and position in each list. */
  nav?: { key: MessageKey; main?: number; footerMain?: number; footerResources?: number }
}

export const PAGE_ROUTES = [
  {
    path: '/',
    cache: { shows: ['testimonial', 'experiments'] },
    titleKey: 'meta.home_title',
    descriptionKey: 'meta.home_description',
    indexable: true,
    nav: { key: 'nav.home', main: 1, footerMain: 1 },
  },
  {
    path: '/about',
    cache: {},
    titleKey: 'about.title',
    descriptionKey: 'about.meta_description',
    indexable: true,
    nav: { key: 'nav.about', main: 2, footerMain: 2 },
  },
  {
    path: '/services',
    cache: {},
    titleKey: 'services.title',
    descriptionKey: 'services.meta_description',
    indexable: true,
    nav: { key: 'nav.services', main: 3, footerMain: 3 },
  },
  {
    path: '/services/:slug',
    cache: { shows: ['experiments'] },
    indexable: true,
    paths: () => SERVICES.map((s) => `/services/${s.slug}`),
  },
  {
    path: '/portfolio',
    cache: { shows: ['case'] },
    titleKey: 'portfolio.title',
    descriptionKey: 'portfolio.meta_description',
    indexable: true,
    nav: { key: 'nav.portfolio', main: 4, footerMain: 4 },
  },
  {
    path: '/pricing',
    cache: { shows: ['plan', 'faq'] },
    titleKey: 'pricing.title',
    descriptionKey: 'pricing.meta_description',
    indexable: true,
    nav: { key: 'nav.pricing', main: 5 },
  },
  {
    path: '/blog',
    cache: { shows: ['article'], query: ['category'] },
    titleKey: 'blog.title',
    descriptionKey: 'blog.meta_description',
    indexable: true,
    nav: { key: 'nav.blog', main: 6, footerResources: 2 },
  },
  {
    path: '/blog/:slug',
    cache: { shows: ['article'] },
    indexable: true,
  },
  {
    path: '/faq',
    cache: { shows: ['faq'] },
    titleKey: 'faq.title',
    descriptionKey: 'faq.meta_description',
    indexable: true,
    nav: { key: 'nav.faq', main: 7, footerResources: 1 },
  },
  {
    path: '/contact',
    cache: {},
    titleKey: 'contact.title',
    descriptionKey: 'contact.meta_description',
    indexable: true,
    nav: { key: 'nav.contact', main: 8, footerMain: 5 },
  },
  {
    path: '/book',
    titleKey: 'booking.title',
    descriptionKey: 'booking.meta_description',
    indexable: true,
  },
  // a booking's invitation, by its token
  { path: '/book/:file{[0-9a-f-]+\\.ics}', indexable: false, secretLink: true },
  // a booking's own page, from the link in its e-mail: reschedule or cancel
  {
    path: '/book/manage',
    titleKey: 'booking.manage_title',
    indexable: false,
    quiet: true,
    secretLink: true,
  },
  {
    path: '/auth',
    titleKey: 'auth.title',
    descriptionKey: 'auth.meta_description',
    indexable: true,
  },
  {
    path: '/auth/confirm',
    titleKey: 'auth.confirm_title',
    descriptionKey: 'auth.meta_description',
    indexable: false,
    secretLink: true,
  },
  {
    path: '/auth/reset',
    titleKey: 'auth.reset_title',
    descriptionKey: 'auth.meta_description',
    indexable: false,
    secretLink: true,
  },
  {
    path: '/account',
    titleKey: 'auth.account',
    descriptionKey: 'auth.meta_description',
    indexable: false,
    signedIn: true,
    quiet: true,
  },
  {
    path: '/privacy-policy',
    cache: {},
    titleKey: 'legal.privacy.title',
    descriptionKey: 'legal.privacy.description',
    indexable: true,
    nav: { key: 'footer.privacy', footerResources: 3 },
  },
  {
    path: '/terms-of-service',
    cache: {},
    titleKey: 'legal.terms.title',
    descriptionKey: 'legal.terms.description',
    indexable: true,
    nav: { key: 'footer.terms', footerResources: 5 },
  },
  {
    path: '/refund-policy',
    cache: {},
    titleKey: 'legal.refund.title',
    descriptionKey: 'legal.refund.description',
    indexable: true,
    nav: { key: 'footer.refund', footerResources: 6 },
  },
  {
    path: '/privacy/request',
    titleKey: 'privacy_request.title',
    descriptionKey: 'privacy_request.meta_description',
    indexable: true,
    nav: { key: 'footer.your_data', footerResources: 4 },
    quiet: true,
  },
  // the pages of e-mailed links: each holds a token, none is for search engines
  {
    path: '/privacy/data',
    titleKey: 'privacy_request.title',
    indexable: false,
    quiet: true,
    secretLink: true,
  },
  {
    path: '/subscribe/confirm',
    titleKey: 'subscription.confirm_title',
    indexable: false,
    quiet: true,
    secretLink: true,
  },
  {
    path: '/unsubscribe',
    titleKey: 'subscription.unsubscribe_title',
    indexable: false,
    quiet: true,
    secretLink: true,
  },
  {
    path: '/join',
    titleKey: 'desk_team.join.title',
    indexable: false,
    quiet: true,
    secretLink: true,
  },
  { path: '/guides/:slug', indexable: false },
] as const satisfies readonly PageRoute[]

export type PagePath = (typeof PAGE_ROUTES)[number]['path']

const routes: readonly PageRoute[] = PAGE_ROUTES

export const routeOf = (path: PagePath): PageRoute => routes.find((r) => r.path === path)!

/** Every indexable page by canonical path: the sitemap's list. */
export const indexablePaths = () =>
  routes
    .filter((r) => r.indexable)
    .flatMap((r) => (r.paths ? r.paths() : r.path.includes(':') ? [] : [r.path]))

/** Pages for signed-in visitors only (sign-out never returns to one of them). */
export const SIGNED_IN_ONLY = routes.filter((r) => r.signedIn).map((r) => r.path)

/** The routes whose address holds an e-mailed secret, matched as the app matches its routes. */
const secretRoutes = new PatternRouter<PageRoute>()
for (const route of routes) if (route.secretLink) secretRoutes.add('ALL', route.path, route)

/**
 * The route of a request's path when its address holds an e-mailed secret (`secretLink`),
 * whatever the method: the page, the form posted from it, a redirect back to it.
 */
export const secretRouteOf = (path: string): PageRoute | undefined =>
  secretRoutes.match('GET', path)[0][0]?.[0]

/**
 * A path as analytics keep it: one that holds its secret in the path itself (an invitation's
 * `/book/<token>.ics`) counts as its route, `/book/:file`, never with the token.
 */
export function countedPath(path: string) {
  const route = secretRouteOf(path)
  return route ? route.path.replace(/\{.*\}/, '') : path
}

type NavList = 'main' | 'footerMain' | 'footerResources'

/** One of the site's link lists (header, footer columns), in its order. */
export function navigation(list: NavList): { key: MessageKey; href: string }[] {
  return routes
    .filter((r) => r.nav?.[list] !== undefined)
    .sort((a, b) => a.nav![list]! - b.nav![list]!)
    .map((r) => ({ key: r.nav!.key, href: r.path }))
}
