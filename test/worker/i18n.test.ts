import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { LANGS } from '../../client/lib/languages'
import { createTranslator, type MessageKey } from '../../worker/i18n/translator'

const get = (path: string, headers: Record<string, string> = {}) =>
  SELF.fetch(`https://example.com${path}`, { headers })
const htmlTag = async (res: Response) => (await res.text()).match(/<html[^>]*>/)![0]

describe('plurals', () => {
  it('words a count in each language’s own plural forms', () => {
    const minutes = (lang: (typeof LANGS)[number], ns: number[]) =>
      ns.map((n) => createTranslator(lang).plural('blog.reading_time', n))
    expect(minutes('ar', [1, 2, 3, 11, 100])).toEqual([
      'دقيقة واحدة للقراءة',
      'دقيقتان للقراءة',
      '3 دقائق للقراءة',
      '11 دقيقة للقراءة',
      '100 دقيقة للقراءة',
    ])
    const en = createTranslator('en')
    expect([1, 2, 1500].map((n) => en.plural('desk.newsletters.send', n))).toEqual([
      'Send now to 1 subscriber',
      'Send now to 2 subscribers',
      'Send now to 1,500 subscribers',
    ])
    // French counts 0 as one; its many is for millions
    const fr = createTranslator('fr')
    expect([0, 2, 1_000_000].map((n) => fr.plural('home.guide_downloads', n))).toEqual([
      '0 téléchargement',
      '2 téléchargements',
      `${(1_000_000).toLocaleString('fr')} de téléchargements`,
    ])
    expect(createTranslator('de').plural('desk_bookings.availability.minutes', 1)).toBe('1 Minute')
  })
})

describe('language negotiation', () => {
  const langOf = async (query: string, headers: Record<string, string>) =>
    (await htmlTag(await get(`/about${query}`, headers))).match(/lang="(\w+)"/)![1]

  it('prefers ?lang, then the cookie, then Accept-Language, then English', async () => {
    const cookie = (lang: string) => ({ Cookie: `preferred-language=${lang}` })
    expect(await langOf('?lang=fr', { ...cookie('de'), 'Accept-Language': 'es' })).toBe('fr')
    expect(await langOf('?lang=xx', { ...cookie('de'), 'Accept-Language': 'es' })).toBe('de')
    expect(await langOf('', { ...cookie('klingon'), 'Accept-Language': 'es-MX,es;q=0.9' })).toBe(
      'es',
    )
    expect(await langOf('', { 'Accept-Language': 'ja, zh;q=0.8' })).toBe('en')
    expect(await langOf('', {})).toBe('en')
  })

  it('honours q-values and primary subtags in Accept-Language', async () => {
    expect(await langOf('', { 'Accept-Language': 'de;q=0.5, pt-BR;q=0.9, en;q=0.1' })).toBe('pt')
    expect(await langOf('', { 'Accept-Language': 'ja, ar-EG;q=0.7, fr;q=0.6' })).toBe('ar')
    expect(await langOf('', { 'Accept-Language': 'fr;q=0, es;q=0.2' })).toBe('es')
    expect(await langOf('', { 'Accept-Language': '*' })).toBe('en')
  })

  it('renders the negotiated language in <html lang dir> with Content-Language and Vary', async () => {
    const res = await get('/about', { 'Accept-Language': 'ar-SA,ar;q=0.9,en;q=0.5' })
    expect(await htmlTag(res)).toMatch(/lang="ar" dir="rtl"/)
    expect(res.headers.get('content-language')).toBe('ar')
    expect(res.headers.get('vary')).toMatch(/Accept-Language/)
    expect(res.headers.get('vary')).toMatch(/Cookie/)
  })

  it('uses the preference cookie over Accept-Language, and ?lang over both', async () => {
    const cookie = await get('/', { Cookie: 'preferred-language=es', 'Accept-Language': 'de' })
    expect(await htmlTag(cookie)).toMatch(/lang="es" dir="ltr"/)
    const query = await get('/?lang=pt', {
      Cookie: 'preferred-language=es',
      'Accept-Language': 'de',
    })
    expect(await htmlTag(query)).toMatch(/lang="pt" dir="ltr"/)
  })

  it('ignores unsupported codes everywhere', async () => {
    const res = await get('/?lang=xx', { Cookie: 'preferred-language=zz', 'Accept-Language': 'it' })
    expect(await htmlTag(res)).toMatch(/lang="en" dir="ltr"/)
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  it('remembers an explicit choice in an HttpOnly, SameSite=Lax cookie, Secure over https', async () => {
    const res = await get('/?lang=ar')
    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/^preferred-language=ar;/)
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).toMatch(/Secure/)
    const plain = await SELF.fetch('http://localhost/?lang=ar')
    expect(plain.headers.get('set-cookie')).not.toMatch(/Secure/)
  })

  it('lists hreflang alternates for the six languages and x-default', async () => {
    const html = await (await get('/pricing?lang=fr')).text()
    for (const lang of LANGS) {
      const href =
        lang === 'en' ? 'https://example.com/pricing' : `https://example.com/pricing?lang=${lang}`
      expect(html).toContain(`<link rel="alternate" hrefLang="${lang}" href="${href}"/>`)
    }
    expect(html).toContain(
      '<link rel="alternate" hrefLang="x-default" href="https://example.com/pricing"/>',
    )
    expect(html).toContain('<link rel="canonical" href="https://example.com/pricing?lang=fr"/>')
  })

  it('offers the six languages by display name in the selector', async () => {
    const html = await (await get('/')).text()
    for (const name of ['English', 'Español', 'Français', 'Deutsch', 'العربية', 'Português'])
      expect(html).toContain(`>${name}</a>`)
  })
})

describe('translator', () => {
  it('falls back to the supplied default text, then to the key', () => {
    const t = createTranslator('es')
    expect(t('nav.home')).not.toBe('nav.home')
    // a key that does not compile: only data can reach the translator with one at run time
    const missing = 'no.such.key' as MessageKey
    expect(t(missing, undefined, 'Default text')).toBe('Default text')
    expect(t(missing)).toBe('no.such.key')
  })

  it('has the SPEC §3 keys with their English values', () => {
    const t = createTranslator('en')
    expect(t('common.book_consultation')).toBe('Book Free Consultation')
    expect(t('common.get_started')).toBe('Get Started')
    expect(t('common.learn_more')).toBe('Learn More')
    expect(t('common.contact_us')).toBe('Contact Us')
    expect(t('common.view_portfolio')).toBe('View Portfolio')
    expect(t('common.read_more')).toBe('Read More')
    expect(t('hero.cta_primary')).toBe('Book Free Strategy Call')
    expect(t('hero.cta_secondary')).toBe('View Success Stories')
    expect(t('services.title')).toBe('Our Services')
    for (const key of [
      'nav.home',
      'nav.about',
      'nav.services',
      'nav.portfolio',
      'nav.contact',
      'nav.pricing',
      'nav.faq',
      'nav.blog',
      'hero.title',
      'hero.subtitle',
      'services.subtitle',
      'services.amazon',
      'services.social_media',
      'services.ecommerce',
      'services.email',
      'services.seo',
      'footer.about_text',
      'footer.quick_links',
      'footer.services_title',
      'footer.contact_info',
      'footer.rights',
    ])
      expect(t(key as MessageKey), key).not.toBe(key)
    expect(t('footer.quick_links')).toBe('Quick Links')
    expect(t('footer.contact_info')).toBe('Contact Information')
    expect(t('footer.rights')).toBe('All rights reserved.')
  })
})
