import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { LANGS } from '../../client/lib/languages'
import { visibleText } from '../fixtures/visible-text.mjs'
import ar from '../fixtures/content-text/ar.json'
import de from '../fixtures/content-text/de.json'
import en from '../fixtures/content-text/en.json'
import es from '../fixtures/content-text/es.json'
import fr from '../fixtures/content-text/fr.json'
import pt from '../fixtures/content-text/pt.json'

/**
 * The content left the repository for D1 (migrations 0013, 0014); the pages read the same. The
 * fixtures are the visible text of every page that shows it, read from the build before the
 * move (each article, /blog, a category, /portfolio, /pricing, /faq, the home page).
 */
const BEFORE: Record<string, Record<string, string>> = { en, ar, es, fr, de, pt }

describe('the content in D1', () => {
  it('holds every article, case, testimonial, plan and question in six languages', async () => {
    const { results } = await env.DB.prepare(
      `SELECT i.kind, count(DISTINCT i.id) AS items, count(*) AS texts,
              count(DISTINCT t.lang) AS langs
       FROM content_items i JOIN content_texts t ON t.item_id = i.id
       WHERE i.status = 'published' GROUP BY i.kind ORDER BY i.kind`,
    ).all()
    expect(results).toEqual([
      { kind: 'article', items: 9, texts: 54, langs: 6 },
      { kind: 'case', items: 6, texts: 36, langs: 6 },
      { kind: 'faq', items: 20, texts: 120, langs: 6 },
      { kind: 'plan', items: 4, texts: 24, langs: 6 },
      { kind: 'testimonial', items: 8, texts: 48, langs: 6 },
    ])
  })

  for (const lang of LANGS)
    it(`renders every page that shows it with the same visible text as before the move (${lang})`, async () => {
      const paths = Object.keys(BEFORE[lang])
      expect(paths).toHaveLength(15)
      for (const path of paths) {
        const res = await SELF.fetch(
          `https://example.com${path}${path.includes('?') ? '&' : '?'}lang=${lang}`,
        )
        expect(res.status, path).toBe(200)
        expect(visibleText(await res.text()), `${lang} ${path}`).toBe(BEFORE[lang][path])
      }
    })
})
