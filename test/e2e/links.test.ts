import { describe, expect, inject, it } from 'vitest'
import { LANGS } from '../../client/lib/languages'

const base = inject('baseURL')

/** Internal href/src targets of a page (fragments and mailto/tel/external left out). */
function internalLinks(html: string): string[] {
  const out = new Set<string>()
  for (const m of html.matchAll(/\s(?:href|src|data-src|content)="([^"]+)"/g)) {
    // absolute URLs of our own (canonical, alternates, social cards) count as internal too
    const raw = m[1].replace(/&amp;/g, '&').replace(base, '')
    if (!raw.startsWith('/') || raw.startsWith('//')) continue
    out.add(raw.split('#')[0] || '/')
  }
  return [...out]
}

describe('link check over the whole built site', () => {
  it(
    'finds no broken internal link or image on any page in any language',
    { timeout: 240_000 },
    async () => {
      const sitemap = await (await fetch(`${base}/sitemap.xml`)).text()
      const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
        (m) => new URL(m[1].replace(/&amp;/g, '&')),
      )
      expect(pages.length).toBeGreaterThan(200)
      const checked = new Map<string, number>()
      const broken: string[] = []
      for (const url of pages) {
        const page = `${url.pathname}${url.search}`
        const res = await fetch(base + page)
        if (res.status !== 200) broken.push(`${page} → ${res.status}`)
        for (const link of internalLinks(await res.text())) {
          if (!checked.has(link)) {
            const target = await fetch(base + link, { redirect: 'manual' })
            checked.set(link, target.status)
            await target.arrayBuffer()
          }
          if (checked.get(link) !== 200) broken.push(`${page} links ${link} → ${checked.get(link)}`)
        }
      }
      expect(broken).toEqual([])
      // the crawl reached pages, fonts and scripts, images and social cards in every language
      const links = [...checked.keys()]
      expect(links.some((l) => l.startsWith('/assets/') && l.endsWith('.js'))).toBe(true)
      // four page types and the nine articles' own cards, drawn at build time; an article
      // saved in the desk since (the content tests save some) shares the card the desk drew
      // for it (/media/<hash>.jpg) instead
      const deskCards = links.filter((l) => /^\/media\/[0-9a-f]{32}\.jpg$/.test(l)).length
      for (const lang of LANGS) {
        const built = links.filter((l) => l.startsWith('/og/') && l.endsWith(`-${lang}.jpg`))
        expect(built.length).toBeLessThanOrEqual(4 + 9)
        expect(built.length + deskCards).toBeGreaterThanOrEqual(4 + 9)
      }
      // the three hero pictures, and the illustrations: 13 services, 6 cases, 9 articles, about
      expect(links.filter((l) => l.startsWith('/images/') && l.endsWith('.webp'))).toHaveLength(3)
      expect(links.filter((l) => l.startsWith('/images/art/'))).toHaveLength(13 + 6 + 9 + 1)
    },
  )
})
