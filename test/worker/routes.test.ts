import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { articleTexts } from './content'
import en from '../../locales/en.json'

const get = (path: string, init?: RequestInit) =>
  SELF.fetch(`https://example.com${path}`, { redirect: 'manual', ...init })

/** The text of the page's single h1, tags stripped. */
function h1(html: string) {
  const all = [...html.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)]
  expect(all).toHaveLength(1)
  return all[0][1]
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .trim()
}

const items = en.services.items
const posts = await articleTexts('en')
const ROUTES: [string, string][] = [
  ['/', en.hero.title],
  ['/about', en.about.title],
  ['/services', en.services.title],
  ['/services/ecommerce', items.ecommerce_marketing.name],
  ['/services/ecommerce-marketing', items.ecommerce_marketing.name],
  ['/services/social-media-marketing', items.social_media_marketing.name],
  ['/services/email-marketing', items.email_marketing.name],
  ['/services/affiliate-marketing', items.affiliate_marketing.name],
  ['/services/web-development', items.web_development.name],
  ['/services/saas-strategy', items.saas_strategy.name],
  ['/services/content-writing', items.content_writing.name],
  ['/services/graphic-design', items.graphic_design.name],
  ['/services/gmb-optimization', items.gmb_optimization.name],
  ['/services/amazon', items.amazon.name],
  ['/services/etsy', items.etsy.name],
  ['/services/shopify', items.shopify.name],
  ['/services/social-media-management', items.social_media_management.name],
  ['/portfolio', en.portfolio.title],
  ['/contact', en.contact.title],
  ['/pricing', en.pricing.title],
  ['/auth', en.auth.title],
  ['/faq', en.faq.title],
  ['/blog', en.blog.title],
  ['/blog/amazon-listings-guide', posts['amazon-listings-guide'].title],
  ['/blog/gmb-optimization-guide', posts['gmb-optimization-guide'].title],
  ['/blog/amazon-sales-strategies', posts['amazon-sales-strategies'].title],
  ['/blog/social-media-trends', posts['social-media-trends'].title],
  ['/blog/email-marketing-automation', posts['email-marketing-automation'].title],
  ['/blog/shopify-seo-guide', posts['shopify-seo-guide'].title],
  ['/blog/affiliate-marketing-guide', posts['affiliate-marketing-guide'].title],
  ['/blog/tiktok-shop-guide', posts['tiktok-shop-guide'].title],
  ['/blog/sales-funnels-guide', posts['sales-funnels-guide'].title],
  ['/privacy-policy', en.legal.privacy.title],
  ['/terms-of-service', en.legal.terms.title],
  ['/refund-policy', en.legal.refund.title],
]

describe('routes', () => {
  it.each(ROUTES)(
    '%s answers 200 with its h1 and main content in the HTML',
    async (path, title) => {
      const res = await get(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/text\/html/)
      const html = await res.text()
      expect(h1(html)).toBe(title)
      expect(html).toMatch(/<main id="main"[^>]*>[\s\S]{200,}<\/main>/)
      expect(html).toContain('<footer')
    },
  )

  it('serves both e-commerce paths as one page with one canonical URL', async () => {
    const [a, b] = await Promise.all([
      get('/services/ecommerce'),
      get('/services/ecommerce-marketing'),
    ])
    const canonical = (html: string) => html.match(/<link rel="canonical" href="([^"]+)"/)?.[1]
    expect(canonical(await a.text())).toBe('https://example.com/services/ecommerce-marketing')
    expect(canonical(await b.text())).toBe('https://example.com/services/ecommerce-marketing')
  })

  it('redirects a trailing slash permanently, keeping the query', async () => {
    const res = await get('/about/?lang=fr')
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe('https://example.com/about?lang=fr')
    expect((await get('/services/amazon/')).headers.get('location')).toBe(
      'https://example.com/services/amazon',
    )
  })

  it.each(['/nope', '/services/nope', '/blog/nope', '/about/team'])(
    'answers %s with a localized 404 page leading home and to the main sections',
    async (path) => {
      const res = await get(path, { headers: { 'Accept-Language': 'de' } })
      expect(res.status).toBe(404)
      const html = await res.text()
      expect(html).toContain('<html lang="de"')
      expect(html).toMatch(/<a href="\/"[^>]*>/)
      for (const section of ['/services', '/pricing', '/contact', '/blog'])
        expect(html).toContain(`href="${section}"`)
    },
  )

  it('puts security headers on pages and on the 404, rendered or from the edge cache', async () => {
    const renders: (string | null)[] = []
    for (const path of ['/', '/', '/nope']) {
      const res = await get(path)
      renders.push(res.headers.get('x-render'))
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
      expect(csp).not.toContain('unsafe-inline')
      expect(csp).toContain("frame-ancestors 'none'")
      expect(res.headers.get('strict-transport-security')).toContain('max-age=')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    }
    expect(renders.slice(1)).toEqual(['hit', 'bypass'])
  })

  it('puts the CSP nonce on the scripts React writes and on no other inline script', async () => {
    const seen = new Set<string>()
    // a render or a hit, then certainly a hit: each with its own nonce
    for (let i = 0; i < 2; i++) {
      const res = await get('/')
      const nonce = res.headers.get('content-security-policy')!.match(/'nonce-([^']+)'/)![1]
      seen.add(nonce)
      const html = await res.text()
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
      expect(scripts.length).toBeGreaterThan(0)
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)
      expect(html).not.toMatch(/\sstyle="/)
    }
    expect(seen.size).toBe(2)
  })
})
