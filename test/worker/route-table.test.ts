import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { PAGE_ROUTES, navigation, SIGNED_IN_ONLY } from '../../worker/routes'

const get = (path: string) => SELF.fetch(`https://example.com${path}`, { redirect: 'manual' })

async function sitemapPaths() {
  const body = await (await get('/sitemap.xml')).text()
  return [...body.matchAll(/<loc>([^<]+)<\/loc>/g)]
    .map((m) => new URL(m[1].replace(/&amp;/g, '&')))
    .filter((u) => !u.search)
    .map((u) => u.pathname)
}

describe('the route table', () => {
  it('puts every indexable route in the sitemap, and no other', async () => {
    const listed = new Set(await sitemapPaths())
    for (const route of PAGE_ROUTES) {
      // (an article's address comes from D1: seo.test.ts checks those)
      if (route.path.includes(':') && !('paths' in route)) continue
      const concrete = 'paths' in route ? route.paths() : [route.path]
      for (const path of concrete)
        expect(listed.has(path), `${path} in the sitemap`).toBe(route.indexable)
    }
  })

  it(
    'answers 200 for every sitemap entry, in English and Arabic',
    { timeout: 60_000 },
    async () => {
      for (const path of await sitemapPaths()) {
        for (const lang of ['', '?lang=ar']) {
          const res = await get(path + lang)
          expect(res.status, path + lang).toBe(200)
          await res.body?.cancel()
        }
      }
    },
  )

  it('marks the pages it does not list noindex', async () => {
    for (const path of ['/auth/confirm', '/auth/reset']) {
      const html = await (await get(path)).text()
      expect(html, path).toContain('<meta name="robots" content="noindex"/>')
    }
    const html = await (await get('/about')).text()
    expect(html).not.toContain('name="robots"')
  })

  it('guards the signed-in pages it names, and only those', async () => {
    expect(SIGNED_IN_ONLY).toEqual(['/account'])
    const res = await get('/account')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/auth?next=/account')
  })

  it('makes the navigation in the order of SPEC §2', () => {
    expect(navigation('main').map((n) => n.href)).toEqual([
      '/',
      '/about',
      '/services',
      '/portfolio',
      '/pricing',
      '/blog',
      '/faq',
      '/contact',
    ])
    expect(navigation('footerResources').map((n) => n.href)).toEqual([
      '/faq',
      '/blog',
      '/privacy-policy',
      '/privacy/request',
      '/terms-of-service',
      '/refund-policy',
    ])
  })
})
