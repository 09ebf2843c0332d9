import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { imageSize } from 'image-size'
import { describe, expect, it } from 'vitest'
import { LANGS } from '../../client/lib/languages'
import { ARTICLES } from '../routes'
import { articleTexts } from './content'
import { indexablePaths } from '../../worker/routes'
import worker from '../../worker/index'
import { OG_LOCALE } from '../../worker/seo'
import { formatPrice } from '../../worker/i18n/format'
import favicon from '../../public/favicon.svg?inline'
import icon192 from '../../public/icons/icon-192.png?inline'
import icon512 from '../../public/icons/icon-512.png?inline'
import iconMaskable from '../../public/icons/icon-maskable-512.png?inline'

const SITE = 'https://example.com'
const PUBLIC_ICONS: Record<string, string> = {
  '/icons/icon-192.png': icon192,
  '/icons/icon-512.png': icon512,
  '/icons/icon-maskable-512.png': iconMaskable,
  '/favicon.svg': favicon,
}
const get = (path: string) => SELF.fetch(SITE + path)

type Head = {
  title: string
  description: string
  canonical: string
  meta: Record<string, string>
  locale: string
  localeAlternates: string[]
  hreflang: Record<string, string>
  ld: Record<string, unknown>[]
}

/** What a crawler reads in <head>: title, description, canonical, alternates, cards, JSON-LD. */
async function head(path: string): Promise<Head> {
  const res = await get(path)
  expect(res.status, path).toBe(200)
  const html = await res.text()
  const unescape = (s: string) =>
    s
      .replace(/&amp;/g, '&')
      .replace(/&#x27;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
  const attr = (re: RegExp) => unescape(html.match(re)?.[1] ?? '')
  const meta: Record<string, string> = {}
  const localeAlternates: string[] = []
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)"/g)) {
    meta[m[1]] = unescape(m[2])
    if (m[1] === 'og:locale:alternate') localeAlternates.push(unescape(m[2]))
  }
  const hreflang: Record<string, string> = {}
  for (const m of html.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"/g))
    hreflang[m[1]] = unescape(m[2])
  const ldText =
    html.match(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/)?.[1] ?? '{}'
  const ld = (JSON.parse(ldText) as { '@graph': Record<string, unknown>[] })['@graph']
  return {
    title: attr(/<title>([^<]*)<\/title>/),
    description: attr(/<meta name="description" content="([^"]*)"/),
    canonical: attr(/<link rel="canonical" href="([^"]+)"/),
    meta,
    locale: meta['og:locale'],
    localeAlternates,
    hreflang,
    ld,
  }
}

/** Every URL-valued property in the JSON-LD (`url`, `item`, `@id`, `image`, `logo`, …). */
const URL_KEYS = new Set(['url', 'item', '@id', 'image', 'logo', 'mainEntityOfPage'])
function urlsIn(node: unknown, isUrl = false): string[] {
  if (typeof node === 'string') return isUrl ? [node] : []
  if (Array.isArray(node)) return node.flatMap((n) => urlsIn(n, isUrl))
  if (node && typeof node === 'object')
    return Object.entries(node).flatMap(([k, v]) => urlsIn(v, URL_KEYS.has(k)))
  return []
}

const ofType = (ld: Record<string, unknown>[], type: string) =>
  ld.filter((n) => n['@type'] === type)
const langUrl = (path: string, lang: string) =>
  SITE + (lang === 'en' ? path : `${path}?lang=${lang}`)

describe('every article in every language', () => {
  for (const lang of LANGS)
    it(`has its own title, description, canonical, hreflang set, cards and BlogPosting (${lang})`, async () => {
      const texts = await articleTexts(lang)
      for (const slug of ARTICLES) {
        const a = texts[slug]
        const path = `/blog/${slug}`
        const h = await head(`${path}?lang=${lang}`)
        // the site's name follows when the whole fits in 70 characters
        const full = `${a.title} | Northstar Growth`
        expect(h.title).toBe(full.length <= 70 ? full : a.title)
        expect(h.title.length).toBeLessThanOrEqual(70)
        expect(h.description).toBe(a.description)
        expect(h.canonical).toBe(langUrl(path, lang))
        expect(Object.keys(h.hreflang).sort()).toEqual([...LANGS, 'x-default'].sort())
        expect(h.hreflang['x-default']).toBe(SITE + path)
        expect(h.meta['og:type']).toBe('article')
        expect(h.meta['og:title']).toBe(h.title)
        expect(h.meta['og:url']).toBe(h.canonical)
        // its own card: the title beside its illustration (npm run og-images)
        expect(h.meta['og:image']).toBe(`${SITE}/og/blog/${slug}-${lang}.jpg`)
        expect(h.meta['twitter:card']).toBe('summary_large_image')
        // the article's own properties, as LinkedIn and Facebook read them
        expect(h.meta).toMatchObject({
          'article:published_time': a.published,
          'article:modified_time': a.updated,
        })
        expect(h.meta['article:section']).toBeTruthy()
        // the card's languages: this one, and each other the article exists in
        expect(h.locale).toBe(OG_LOCALE[lang])
        expect(h.localeAlternates.sort()).toEqual(
          LANGS.filter((l) => l !== lang)
            .map((l) => OG_LOCALE[l])
            .sort(),
        )
        const [posting] = ofType(h.ld, 'BlogPosting')
        expect(posting).toMatchObject({
          headline: a.title,
          description: a.description,
          datePublished: a.published,
          dateModified: a.updated,
          inLanguage: lang,
          author: { '@type': 'Person', name: a.author },
          // the address of this language's text, as its canonical link names it
          url: h.canonical,
          mainEntityOfPage: h.canonical,
          // its card, with the size a search engine needs to show it
          image: [{ '@type': 'ImageObject', url: h.meta['og:image'], width: 1200, height: 630 }],
        })
        expect(a.words).toBeGreaterThan(lang === 'en' ? 1200 : 900)
        const [crumbs] = ofType(h.ld, 'BreadcrumbList') as {
          itemListElement: { position: number; name: string; item: string }[]
        }[]
        expect(crumbs.itemListElement.map((i) => i.position)).toEqual([1, 2, 3])
        // each crumb the page of that name: in this language
        expect(crumbs.itemListElement.map((i) => i.item)).toEqual([
          langUrl('/', lang),
          langUrl('/blog', lang),
          h.canonical,
        ])
        expect(crumbs.itemListElement[2]).toMatchObject({ name: a.title })
      }
    })
})

describe('every page', () => {
  it('has a unique title and a description in each language', { timeout: 60_000 }, async () => {
    for (const lang of LANGS) {
      const titles = new Map<string, string>()
      for (const path of indexablePaths()) {
        const h = await head(`${path}?lang=${lang}`)
        expect(h.description.length, `${lang} ${path}`).toBeGreaterThan(40)
        expect(
          titles.get(h.title),
          `${lang}: ${path} and ${titles.get(h.title)} share "${h.title}"`,
        ).toBeUndefined()
        titles.set(h.title, path)
        expect(ofType(h.ld, 'ProfessionalService')).toHaveLength(1)
        expect(ofType(h.ld, 'ProfessionalService')[0]).not.toHaveProperty('aggregateRating')
        expect(h.locale, path).toBe(OG_LOCALE[lang])
        expect(h.localeAlternates, path).toHaveLength(LANGS.length - 1)
        // every address a machine reads is absolute, on the site, and in the page's language
        for (const url of urlsIn(h.ld)) expect(url.startsWith(`${SITE}/`), url).toBe(true)
        if (path !== '/') {
          const crumbs = ofType(h.ld, 'BreadcrumbList') as {
            itemListElement: { item: string }[]
          }[]
          expect(crumbs, path).toHaveLength(1)
          const items = crumbs[0]!.itemListElement.map((i) => i.item)
          expect(items[0], path).toBe(langUrl('/', lang))
          expect(items.at(-1), path).toBe(h.canonical)
        }
      }
    }
  })

  it('describes the agency, the site, services and FAQs for rich results', async () => {
    const home = await head('/')
    expect(ofType(home.ld, 'WebSite')[0]).toMatchObject({
      url: `${SITE}/`,
      name: 'Northstar Growth',
    })
    const org = ofType(home.ld, 'ProfessionalService')[0] as {
      name: string
      url: string
      email: string
      telephone: string
      sameAs: string[]
    }
    expect(org.name).toBe('Northstar Growth')
    expect(org.email).toMatch(/@/)
    // the networks' home pages (SOCIAL_* unset) are not the agency's profiles
    expect(org).not.toHaveProperty('sameAs')
    const ctx = createExecutionContext()
    const withProfiles = await worker.fetch(
      new Request(`${SITE}/`),
      {
        ...env,
        SOCIAL_INSTAGRAM: 'https://www.instagram.com/northstargrowth/',
        SOCIAL_LINKEDIN: 'https://www.linkedin.com/company/northstar-growth',
      },
      ctx,
    )
    await waitOnExecutionContext(ctx)
    const graph = JSON.parse(
      /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/.exec(
        await withProfiles.text(),
      )![1]!,
    ) as { '@graph': { '@type': string; sameAs?: string[] }[] }
    expect(ofType(graph['@graph'], 'ProfessionalService')[0]!.sameAs).toEqual([
      'https://www.instagram.com/northstargrowth/',
      'https://www.linkedin.com/company/northstar-growth',
    ])

    const amazon = await head('/services/amazon?lang=de')
    expect(ofType(amazon.ld, 'Service')[0]).toMatchObject({
      url: `${SITE}/services/amazon?lang=de`,
      provider: { '@id': `${SITE}/#organization` },
    })
    const faq = ofType(amazon.ld, 'FAQPage')[0] as {
      mainEntity: { '@type': string; name: string; acceptedAnswer: { text: string } }[]
    }
    expect(faq.mainEntity).toHaveLength(4)
    for (const q of faq.mainEntity) {
      expect(q['@type']).toBe('Question')
      expect(q.name.length).toBeGreaterThan(5)
      expect(q.acceptedAnswer.text.length).toBeGreaterThan(20)
    }
    // the plans as offers, each as the pricing page shows it, in the page's language
    for (const lang of LANGS) {
      const page = await (await get(`/pricing?lang=${lang}`)).text()
      const pricing = await head(`/pricing?lang=${lang}`)
      const [catalog] = ofType(pricing.ld, 'OfferCatalog') as {
        url: string
        itemListElement: {
          name: string
          url: string
          price?: number
          priceCurrency?: string
          itemOffered: { '@type': string; name: string; description: string }
        }[]
      }[]
      const shown = [...page.matchAll(/<h2 class="m-0 text-xl font-bold">([^<]+)<\/h2>/g)].map(
        (m) => m[1],
      )
      expect(shown.length, lang).toBeGreaterThan(1)
      expect(catalog!.url).toBe(langUrl('/pricing', lang))
      expect(catalog!.itemListElement.map((o) => o.name)).toEqual(shown)
      for (const offer of catalog!.itemListElement) {
        expect(offer.url).toBe(langUrl('/pricing', lang))
        expect(offer.itemOffered).toMatchObject({ '@type': 'Service', name: offer.name })
        // its features joined as the language joins a list (no "; " in Arabic)
        expect(offer.itemOffered.description).toMatch(lang === 'ar' ? / و/ : /\S/)
        expect(offer.itemOffered.description).not.toContain(';')
        if (offer.price === undefined) continue
        expect(offer.priceCurrency).toBe('USD')
        expect(page).toContain(formatPrice(lang, offer.price))
      }
      expect(catalog!.itemListElement.some((o) => typeof o.price === 'number')).toBe(true)
    }
    const faqPage = ofType((await head('/faq')).ld, 'FAQPage')[0] as { mainEntity: unknown[] }
    expect(faqPage.mainEntity).toHaveLength(16)
    // the alias has the canonical page's canonical
    expect((await head('/services/ecommerce')).canonical).toBe(
      `${SITE}/services/ecommerce-marketing`,
    )
  })
})

/** A date as RSS 2.0 writes it (RFC 822, four-digit year). */
const RFC_822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/

describe('sitemap, robots and RSS', () => {
  it('lists every page in every language with its alternates, as valid XML', async () => {
    const res = await get('/sitemap.xml')
    expect(res.headers.get('content-type')).toMatch(/application\/xml/)
    // asked again with its ETag, unchanged: 304, no body
    const again = await SELF.fetch(`${SITE}/sitemap.xml`, {
      headers: { 'If-None-Match': res.headers.get('ETag')! },
    })
    expect(again.status).toBe(304)
    expect(again.headers.get('Cache-Control')).toBe('public, max-age=0, must-revalidate')
    const body = await res.text()
    expect(XMLValidator.validate(body)).toBe(true)
    const doc = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => name === 'url' || name === 'xhtml:link',
    }).parse(body)
    const urls = doc.urlset.url as {
      loc: string
      lastmod?: string
      'xhtml:link': { '@_hreflang': string; '@_href': string }[]
    }[]
    // the fixed pages and the nine published articles, each in its six languages
    const pages = [...indexablePaths(), ...ARTICLES.map((slug) => `/blog/${slug}`)]
    expect(urls).toHaveLength(pages.length * LANGS.length)
    const locs = new Set(urls.map((u) => u.loc))
    for (const path of pages)
      for (const lang of LANGS) expect(locs.has(langUrl(path, lang)), `${path} ${lang}`).toBe(true)
    for (const u of urls)
      expect(u['xhtml:link'].map((l) => l['@_hreflang']).sort()).toEqual(
        [...LANGS, 'x-default'].sort(),
      )
    // an article's last change: a W3C date, the one its page's BlogPosting says
    const texts = await articleTexts('en')
    for (const u of urls.filter((u) => u.loc.includes('/blog/'))) {
      const slug = u.loc.replace(/^.*\/blog\/|\?.*$/g, '')
      expect(u.lastmod, u.loc).toBe(texts[slug]!.updated)
    }
  })

  it('hands browsers a manifest in each language, right to left in Arabic, with icons that exist at their sizes', async () => {
    for (const lang of LANGS) {
      const res = await get(`/manifest.webmanifest?lang=${lang}`)
      expect(res.headers.get('content-type')).toMatch(/application\/manifest\+json/)
      const manifest = (await res.json()) as {
        name: string
        short_name: string
        description: string
        lang: string
        dir: string
        start_url: string
        icons: { src: string; sizes: string; type: string }[]
      }
      expect(manifest).toMatchObject({
        // the same app whatever the language it was installed in
        id: '/',
        lang,
        dir: lang === 'ar' ? 'rtl' : 'ltr',
        start_url: lang === 'en' ? '/' : `/?lang=${lang}`,
      })
      expect(manifest.description).toBe((await head(`/?lang=${lang}`)).description)
      expect(manifest.short_name.length).toBeLessThanOrEqual(manifest.name.length)
      if (lang !== 'en') continue
      // the files in public/ (the tests' workerd serves no assets), of the type and size said
      for (const icon of manifest.icons) {
        const file = PUBLIC_ICONS[icon.src]
        expect(file, icon.src).toBeDefined()
        expect(file!.startsWith(`data:${icon.type}`), icon.src).toBe(true)
        if (icon.sizes === 'any') continue
        const bytes = Uint8Array.from(atob(file!.split(',')[1]!), (c) => c.charCodeAt(0))
        const { width, height } = imageSize(bytes)
        expect(`${width}x${height}`, icon.src).toBe(icon.sizes)
      }
    }
  })

  it('tells crawlers where the sitemap is and what to skip', async () => {
    const body = await (await get('/robots.txt')).text()
    expect(body).toContain(`Sitemap: ${SITE}/sitemap.xml`)
    for (const path of ['/api/', '/auth/v1/', '/account'])
      expect(body).toContain(`Disallow: ${path}`)
  })

  it('offers RSS 2.0 per language with absolute links to every article', async () => {
    for (const lang of LANGS) {
      const res = await get(`/blog/rss.xml?lang=${lang}`)
      expect(res.headers.get('content-type')).toMatch(/application\/rss\+xml/)
      const body = await res.text()
      expect(XMLValidator.validate(body)).toBe(true)
      const rss = new XMLParser({ ignoreAttributes: false }).parse(body).rss
      expect(rss['@_version']).toBe('2.0')
      expect(rss.channel.language).toBe(lang)
      expect(rss.channel.link).toBe(langUrl('/blog', lang))
      expect(rss.channel['atom:link']).toMatchObject({
        '@_href': `${SITE}/blog/rss.xml?lang=${lang}`,
        '@_rel': 'self',
      })
      expect(rss.channel.lastBuildDate).toMatch(RFC_822)
      expect(rss.channel.item).toHaveLength(ARTICLES.length)
      const texts = await articleTexts(lang)
      for (const item of rss.channel.item) {
        expect(item.link).toMatch(
          new RegExp(`^${SITE}/blog/[a-z-]+${lang === 'en' ? '$' : `\\?lang=${lang}$`}`),
        )
        expect(item.pubDate).toMatch(RFC_822)
        expect(item.guid['#text']).toBe(item.link)
        const slug = item.link.replace(/^.*\/blog\/|\?.*$/g, '')
        expect(item.title).toBe(texts[slug].title)
        // the picture a reader shows beside it: the article's card, as it is shared
        expect(item['media:content']).toEqual({
          '@_url': `${SITE}/og/blog/${slug}-${lang}.jpg`,
          '@_medium': 'image',
          '@_type': 'image/jpeg',
          '@_width': '1200',
          '@_height': '630',
        })
      }
    }
  })
})
