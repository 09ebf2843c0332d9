import type { Context } from 'hono'
import type { Lang } from '../client/lib/languages'
import type { AppEnv } from './env'
import { CARD_HEIGHT, CARD_WIDTH, type MediaPicture } from '../client/lib/media-picture'
import { pageUrl } from './render/context'
import { CURRENCY, formatList } from './i18n/format'

/**
 * Open Graph image of each page type, and each article's own: the seeded articles' drawn at build
 * time (public/og/<type>-<lang>.jpg, public/og/blog/<slug>-<lang>.jpg; scripts/og-images.mjs),
 * the desk's drawn by the editor's browser and stored with the pictures (`{ media: name }`,
 * /media/<name>; decision 007). Every one is 1200×630.
 */
export type PageImage = 'home' | 'services' | 'blog' | 'page' | `blog/${string}` | { media: string }

export const OG_LOCALE: Record<Lang, string> = {
  en: 'en_GB',
  es: 'es_ES',
  fr: 'fr_FR',
  de: 'de_DE',
  ar: 'ar_AR',
  pt: 'pt_BR',
}

export const ogImagePath = (image: PageImage, lang: Lang) =>
  typeof image === 'object' ? `/media/${image.media}` : `/og/${image}-${lang}.jpg`

type Thing = Record<string, unknown>

/** Whether a social link names a profile: a path past the network's home page. */
const isProfile = (url: string) =>
  URL.canParse(url) && new URL(url).pathname.replace(/\/+$/, '') !== ''

/** The agency, referenced by @id from every other node. */
export function organization(c: Context<AppEnv>): Thing {
  const { config, t } = c.var
  const profiles = Object.values(config.social).filter(isProfile)
  return {
    '@type': 'ProfessionalService',
    '@id': `${config.siteUrl}/#organization`,
    name: t('meta.site_name'),
    description: t('meta.home_description'),
    url: `${config.siteUrl}/`,
    logo: `${config.siteUrl}/favicon.svg`,
    image: `${config.siteUrl}${ogImagePath('home', 'en')}`,
    email: config.email,
    telephone: config.phone,
    areaServed: 'Worldwide',
    address: [
      { '@type': 'PostalAddress', addressCountry: 'GB' },
      { '@type': 'PostalAddress', addressCountry: 'NG' },
    ],
    // the agency's own profiles: a network's home page (the default of SOCIAL_*) is not one
    ...(profiles.length ? { sameAs: profiles } : {}),
    // No aggregateRating: the 4.9/5 figure is not backed by reviews shown on the site.
  }
}

export function website(c: Context<AppEnv>): Thing {
  const { config, t, lang } = c.var
  return {
    '@type': 'WebSite',
    '@id': `${config.siteUrl}/#website`,
    url: `${config.siteUrl}/`,
    name: t('meta.site_name'),
    inLanguage: lang,
    publisher: { '@id': `${config.siteUrl}/#organization` },
  }
}

/** Home › … › the page; `path` of the last item is the page itself. Each in the page's language. */
export function breadcrumbs(c: Context<AppEnv>, trail: { name: string; path: string }[]): Thing {
  const { config, t, lang } = c.var
  const items = [{ name: t('common.home'), path: '/' }, ...trail]
  return {
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: item.name,
      item: pageUrl(config.siteUrl, item.path, lang),
    })),
  }
}

export function faqPage(questions: { q: string; a: string }[]): Thing {
  return {
    '@type': 'FAQPage',
    mainEntity: questions.map(({ q, a }) => ({
      '@type': 'Question',
      name: q,
      acceptedAnswer: { '@type': 'Answer', text: a },
    })),
  }
}

export function service(
  c: Context<AppEnv>,
  s: { name: string; description: string; path: string },
): Thing {
  const { config, lang } = c.var
  return {
    '@type': 'Service',
    name: s.name,
    serviceType: s.name,
    description: s.description,
    url: pageUrl(config.siteUrl, s.path, lang),
    areaServed: 'Worldwide',
    provider: { '@id': `${config.siteUrl}/#organization` },
  }
}

/**
 * The plans as the agency's offers: a monthly price where there is one, else the plan alone (a
 * price agreed per client). Each points at the pricing page in the page's language.
 */
export function planOffers(
  c: Context<AppEnv>,
  plans: { name: string; description: string; features: string[]; price: number | null }[],
): Thing {
  const { config, t, lang } = c.var
  const url = pageUrl(config.siteUrl, '/pricing', lang)
  return {
    '@type': 'OfferCatalog',
    name: t('pricing.title'),
    url,
    itemListElement: plans.map((p) => ({
      '@type': 'Offer',
      name: p.name,
      description: p.description,
      url,
      seller: { '@id': `${config.siteUrl}/#organization` },
      itemOffered: {
        '@type': 'Service',
        name: p.name,
        description: formatList(lang, p.features),
        provider: { '@id': `${config.siteUrl}/#organization` },
      },
      ...(p.price === null
        ? {}
        : {
            price: p.price,
            priceCurrency: CURRENCY,
            priceSpecification: {
              '@type': 'UnitPriceSpecification',
              price: p.price,
              priceCurrency: CURRENCY,
              unitCode: 'MON',
              referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: 'MON' },
            },
          }),
    })),
  }
}

export function blogPosting(
  c: Context<AppEnv>,
  p: {
    title: string
    description: string
    path: string
    /** The article's social card. */
    image: PageImage
    /** The article's cover from the desk, at its upright size. */
    cover?: MediaPicture
    author: string
    published: string
    updated: string
    words: number
    category: string
    /** The article's language, where it is shown under another language's address. */
    inLanguage?: Lang
  },
): Thing {
  const { config, lang } = c.var
  // the address of the text described: the article's own language's
  const url = pageUrl(config.siteUrl, p.path, p.inLanguage ?? lang)
  const picture = (path: string, width: number, height: number) => ({
    '@type': 'ImageObject',
    url: config.siteUrl + path,
    width,
    height,
  })
  return {
    '@type': 'BlogPosting',
    headline: p.title,
    description: p.description,
    url,
    mainEntityOfPage: url,
    // its card, and its cover as uploaded (search engines prefer one of 1200 pixels or more)
    image: [
      picture(ogImagePath(p.image, p.inLanguage ?? lang), CARD_WIDTH, CARD_HEIGHT),
      ...(p.cover ? [picture(`/media/${p.cover.name}`, p.cover.width, p.cover.height)] : []),
    ],
    author: { '@type': 'Person', name: p.author },
    publisher: { '@id': `${config.siteUrl}/#organization` },
    datePublished: p.published,
    dateModified: p.updated,
    inLanguage: p.inLanguage ?? lang,
    wordCount: p.words,
    articleSection: p.category,
  }
}

/** One JSON-LD document for the page, safe to inline in a <script> element. */
export function jsonLdScript(nodes: Thing[]): string {
  return JSON.stringify({ '@context': 'https://schema.org', '@graph': nodes }).replace(
    /</g,
    '\\u003c',
  )
}
