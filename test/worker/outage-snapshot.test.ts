import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { LANGS } from '../../client/lib/languages'
import { refreshSnapshots } from '../../worker/content/snapshot'
import { visibleText } from '../fixtures/visible-text.mjs'
import ar from '../fixtures/content-text/ar.json'
import de from '../fixtures/content-text/de.json'
import en from '../fixtures/content-text/en.json'
import es from '../fixtures/content-text/es.json'
import fr from '../fixtures/content-text/fr.json'
import pt from '../fixtures/content-text/pt.json'
import { site } from './outage'

/** Each page's visible text as the site showed it (content-pages.test.ts reads the same). */
const SHOWN: Record<string, Record<string, string>> = { en, ar, es, fr, de, pt }

// A file of its own: a new isolate (workerd per test file), its memory and cache empty, no
// generation ever read. D1 fails from its first request; the published content's snapshot in
// R2 (content/snapshot.ts) is all there is.
describe('a new isolate while D1 is down (issue 41)', () => {
  it('serves /blog and an article from the snapshot, with the text the site showed', async () => {
    expect(await refreshSnapshots(env)).toEqual(['article', 'case', 'testimonial', 'plan', 'faq'])
    const { get, fail } = site()
    fail()
    for (const lang of LANGS)
      for (const path of ['/blog', '/blog/shopify-seo-guide']) {
        const page = await get(path, { Cookie: `preferred-language=${lang}` })
        expect(page.res.status, `${lang} ${path}`).toBe(200)
        expect(page.source, `${lang} ${path}`).toBe('snapshot')
        expect(visibleText(page.body), `${lang} ${path}`).toBe(SHOWN[lang][path])
      }
    // an address the snapshot does not have is the not-found page, as with D1
    const missing = await get('/blog/no-such-article')
    expect(missing.res.status).toBe(404)

    // the sitemap and the feed in each language list what D1 lists, byte for byte
    const listings = ['/sitemap.xml', ...LANGS.map((lang) => `/blog/rss.xml?lang=${lang}`)]
    const listed = Object.fromEntries(
      await Promise.all(listings.map(async (path) => [path, await get(path)] as const)),
    )
    for (const [name, { res, source }] of Object.entries(listed)) {
      expect(res.status, name).toBe(200)
      expect(source, name).toBe('snapshot')
      expect(res.headers.get('Cache-Control'), name).toBe('no-store')
    }
    const fromD1 = site()
    for (const path of listings)
      expect(listed[path]!.body, path).toBe((await fromD1.get(path)).body)
  })
})
