import { SELF } from 'cloudflare:test'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { LANGS } from '../../client/lib/languages'
import { ARTICLES } from '../routes'
import { articleTexts } from './content'
import { indexablePaths } from '../../worker/routes'

const SITE = 'https://example.com'
const get = (path: string) => SELF.fetch(SITE + path)

type Head = {
  title: string
  description: string
  canonical: string
  meta: Record<string, string>
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
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)"/g))
    meta[m[1]] = unescape(m[2])
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
    hreflang,
    ld,
  }
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
        const [posting] = ofType(h.ld, 'BlogPosting')
        expect(posting).toMatchObject({
          headline: a.title,
          description: a.description,
          datePublished: a.published,
          dateModified: a.updated,
          inLanguage: lang,
          author: { '@type': 'Person', name: a.author },
          image: h.meta['og:image'],
        })
        expect(a.words).toBeGreaterThan(lang === 'en' ? 1200 : 900)
        const [crumbs] = ofType(h.ld, 'BreadcrumbList') as {
          itemListElement: { position: number; name: string; item: string }[]
        }[]
        expect(crumbs.itemListElement.map((i) => i.position)).toEqual([1, 2, 3])
        expect(crumbs.itemListElement[2]).toMatchObject({ name: a.title, item: SITE + path })
      }
    })
})

describe('every page', () => {
  it('has a unique title and a description in each language', { timeout: 30_000 }, async () => {
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
        if (path !== '/') expect(ofType(h.ld, 'BreadcrumbList'), path).toHaveLength(1)
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
    expect(org.sameAs).toHaveLength(5)

    const amazon = await head('/services/amazon?lang=de')
    expect(ofType(amazon.ld, 'Service')[0]).toMatchObject({
      url: `${SITE}/services/amazon`,
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
    const faqPage = ofType((await head('/faq')).ld, 'FAQPage')[0] as { mainEntity: unknown[] }
    expect(faqPage.mainEntity).toHaveLength(16)
    // the alias has the canonical page's canonical
    expect((await head('/services/ecommerce')).canonical).toBe(
      `${SITE}/services/ecommerce-marketing`,
    )
  })
})

describe('sitemap, robots and RSS', () => {
  it('lists every page in every language with its alternates, as valid XML', async () => {
    const res = await get('/sitemap.xml')
    expect(res.headers.get('content-type')).toMatch(/application\/xml/)
    const body = await res.text()
    expect(XMLValidator.validate(body)).toBe(true)
    const doc = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => name === 'url' || name === 'xhtml:link',
    }).parse(body)
    const urls = doc.urlset.url as {
      loc: string
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
  })

  it('tells crawlers where the sitemap is and what to skip', async () => {
    const body = await (await get('/robots.txt')).text()
    expect(body).toContain(`Sitemap: ${SITE}/sitemap.xml`)
    for (const path of ['/api/', '/auth/v1/', '/account'])
      expect(body).toContain(`Disallow: ${path}`)
  })

  it('offers RSS 2.0 per language with absolute links to every article', async () => {
    for (const lang of ['en', 'ar']) {
      const res = await get(`/blog/rss.xml?lang=${lang}`)
      expect(res.headers.get('content-type')).toMatch(/application\/rss\+xml/)
      const body = await res.text()
      expect(XMLValidator.validate(body)).toBe(true)
      const rss = new XMLParser({ ignoreAttributes: false }).parse(body).rss
      expect(rss['@_version']).toBe('2.0')
      expect(rss.channel.language).toBe(lang)
      expect(rss.channel.item).toHaveLength(ARTICLES.length)
      const texts = await articleTexts(lang)
      for (const item of rss.channel.item) {
        expect(item.link).toMatch(
          new RegExp(`^${SITE}/blog/[a-z-]+${lang === 'en' ? '$' : `\\?lang=${lang}$`}`),
        )
        expect(new Date(item.pubDate).getTime()).not.toBeNaN()
        expect(item.title).toBe(texts[item.link.replace(/^.*\/blog\/|\?.*$/g, '')].title)
      }
    }
  })
})
