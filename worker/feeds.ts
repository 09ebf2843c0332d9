import { Hono } from 'hono'
import { etag } from 'hono/etag'
import { dirOf, LANGS, type Lang } from '../client/lib/languages'
import { CARD_HEIGHT, CARD_WIDTH, sizeName } from '../client/lib/media-picture'
import { ogImagePath } from './seo'
import { plainWidth } from './content/media-sizes'
import type { Context } from 'hono'
import { articleIndex, articles, currentCard, type Article } from './content/live'
import type { AppEnv } from './env'
import { SOURCE_HEADER } from './render/cache-key'
import { langHref, pageUrl } from './render/context'
import { indexablePaths } from './routes'

/**
 * What crawlers and browsers read: the sitemap (every page, with its six languages),
 * robots.txt, RSS, and the web app manifest.
 */
export const feeds = new Hono<AppEnv>()

/** Text in XML: escaped, without the control characters XML 1.0 forbids (a pasted one). */
const xml = (s: string) =>
  s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
/**
 * Text as HTML: an item's <description> is HTML (RSS 2.0's convention, which readers follow),
 * so its text is escaped as HTML and then as XML; a reader decoding it once shows "<title>".
 */
const asHtml = xml

/**
 * Lists and feeds change with the desk's content: browsers and crawlers ask again each time
 * (our edge answers them from D1 in a few milliseconds), so a published article is listed at once.
 */
const FRESH = 'public, max-age=0, must-revalidate'

/**
 * A list or feed as read: from the content's snapshot while D1 fails (content/live.ts), said so
 * and kept by no one, as the pages are (layout/document.tsx).
 */
const listing = (c: Context<AppEnv>, body: string, type: string) =>
  c.body(body, 200, {
    'Content-Type': type,
    ...(c.var.contentSource
      ? { [SOURCE_HEADER]: c.var.contentSource, 'Cache-Control': 'no-store' }
      : { 'Cache-Control': FRESH }),
  })

// "must-revalidate" needs a validator: a crawler or feed reader asking again with the ETag it
// has gets 304 and no body while nothing changed (feed readers ask every few minutes)
feeds.use('/sitemap.xml', etag())
feeds.use('/blog/rss.xml', etag())

feeds.get('/sitemap.xml', async (c) => {
  const site = c.var.config.siteUrl
  const published = await articleIndex(c)
  const modified = Object.fromEntries(
    published.map((a) => [`/blog/${a.slug}`, a.updated_at.slice(0, 10)]),
  )
  const pages = [
    ...indexablePaths().map((path) => ({ path, langs: LANGS as readonly string[] })),
    // an article in the languages it exists in, and only those
    ...published.map((a) => ({ path: `/blog/${a.slug}`, langs: a.langs as readonly string[] })),
  ]
  const urls = pages.flatMap(({ path, langs }) => {
    const alternates = [
      ...langs.map(
        (l) =>
          `    <xhtml:link rel="alternate" hreflang="${l}" href="${xml(pageUrl(site, path, l))}"/>`,
      ),
      `    <xhtml:link rel="alternate" hreflang="x-default" href="${xml(site + path)}"/>`,
    ].join('\n')
    const lastmod = modified[path] ? `\n    <lastmod>${modified[path]}</lastmod>` : ''
    return langs.map(
      (l) =>
        `  <url>\n    <loc>${xml(pageUrl(site, path, l))}</loc>${lastmod}\n${alternates}\n  </url>`,
    )
  })
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${urls.join('\n')}
</urlset>
`
  return listing(c, body, 'application/xml; charset=utf-8')
})

feeds.get('/robots.txt', (c) => {
  const body = `User-agent: *
Allow: /
Disallow: /api/
Disallow: /auth/v1/
Disallow: /account
Disallow: /guides/

Sitemap: ${c.var.config.siteUrl}/sitemap.xml
`
  return c.text(body, 200, { 'Cache-Control': 'public, max-age=3600' })
})

/**
 * The picture a feed reader shows beside an item (Media RSS): the cover's size nearest 960
 * pixels, else the article's social card, else none. Absolute, with its size.
 */
function feedPicture(a: Article, lang: Lang) {
  const cover = a.shared.cover
  if (cover?.widths?.length) {
    const width = plainWidth(cover.widths)
    return {
      path: `/media/${sizeName(cover.name, width, 'webp')}`,
      type: 'image/webp',
      width,
      height: Math.round((cover.height * width) / cover.width),
    }
  }
  const card = currentCard(a)
  const image = card ? { media: card.name } : a.shared.artwork ? (`blog/${a.slug}` as const) : null
  return (
    image && {
      path: ogImagePath(image, lang),
      type: 'image/jpeg',
      width: CARD_WIDTH,
      height: CARD_HEIGHT,
    }
  )
}

/** The articles that exist in the feed's language (`?lang=`), newest first. */
feeds.get('/blog/rss.xml', async (c) => {
  const { t, lang, config } = c.var
  const site = config.siteUrl
  const list = await articles(c)
  const items = list.map((a) => {
    const link = pageUrl(site, `/blog/${a.slug}`, lang)
    const picture = feedPicture(a, lang)
    const media = picture
      ? `\n      <media:content url="${xml(site + picture.path)}" medium="image" type="${picture.type}" width="${picture.width}" height="${picture.height}"/>`
      : ''
    return `    <item>
      <title>${xml(a.texts.title)}</title>
      <link>${xml(link)}</link>
      <guid isPermaLink="true">${xml(link)}</guid>
      <pubDate>${new Date(a.published).toUTCString()}</pubDate>
      <dc:creator>${xml(a.texts.author)}</dc:creator>
      <category>${xml(a.texts.category_label)}</category>
      <description>${xml(asHtml(a.texts.excerpt))}</description>${media}
    </item>`
  })
  const self = `${site}/blog/rss.xml?lang=${lang}`
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
  <channel>
    <title>${xml(`${t('blog.title')} | ${t('meta.site_name')}`)}</title>
    <link>${xml(pageUrl(site, '/blog', lang))}</link>
    <description>${xml(t('blog.meta_description'))}</description>
    <language>${lang}</language>
    <atom:link href="${xml(self)}" rel="self" type="application/rss+xml"/>
    <lastBuildDate>${new Date(
      list
        .map((a) => a.updatedAt)
        .sort()
        .at(-1) ?? Date.now(),
    ).toUTCString()}</lastBuildDate>
${items.join('\n')}
  </channel>
</rss>
`
  return listing(c, body, 'application/rss+xml; charset=utf-8')
})

/** The web app manifest in the page's language (`?lang=`), linked from every page's head. */
feeds.get('/manifest.webmanifest', (c) => {
  const { t, lang } = c.var
  const manifest = {
    name: t('meta.site_name'),
    short_name: t('meta.site_name'),
    description: t('meta.home_description'),
    lang,
    dir: dirOf(lang),
    // one app in every language: without an id, a browser takes start_url (which names the
    // language) as the app's identity, and the site installed in Arabic is another app
    id: '/',
    start_url: lang === 'en' ? '/' : langHref('/', lang),
    scope: '/',
    display: 'browser',
    theme_color: '#1c358a',
    background_color: '#ffffff',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      {
        src: '/icons/icon-maskable-512.png',
        sizes: '512x512',
        type: 'image/png',
        purpose: 'maskable',
      },
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
    ],
  }
  c.header('Cache-Control', 'public, max-age=86400')
  return c.body(JSON.stringify(manifest), 200, {
    'Content-Type': 'application/manifest+json; charset=utf-8',
  })
})
