import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import app from '../../worker/index'
import { SITE } from './auth/helpers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LANGS } from '../../client/lib/languages'
import { refreshSnapshots } from '../../worker/content/snapshot'
import { visibleText } from '../fixtures/visible-text.mjs'
import { person } from './desk/helpers'
import { anArticle, site } from './outage'
import ar from '../../locales/ar.json'
import de from '../../locales/de.json'
import en from '../../locales/en.json'
import es from '../../locales/es.json'
import fr from '../../locales/fr.json'
import pt from '../../locales/pt.json'

const LOCALES = { en, es, fr, de, pt, ar }

afterEach(() => {
  vi.useRealTimers()
})

describe('the site when D1 falls (issue 41)', () => {
  it(
    'serves every content page it served before, a signed-in visitor too; a page never served from the snapshot, else the 503 page',
    { timeout: 120_000 },
    async () => {
      await refreshSnapshots(env)
      const article = `/blog/${await anArticle()}`
      const pages = ['/', '/blog', article, '/portfolio', '/pricing', '/faq']
      const { get, fail } = site()
      const { email, cookie } = await person({ staff: false, secondFactor: false })
      const before = new Map<string, string>()
      for (const lang of LANGS)
        for (const path of pages) {
          const page = await get(path, { Cookie: `preferred-language=${lang}` })
          expect(page.res.status, `${lang} ${path}`).toBe(200)
          before.set(`${lang} ${path}`, visibleText(page.body))
        }
      const listings = ['/sitemap.xml', '/blog/rss.xml?lang=ar']
      for (const path of listings) {
        const listed = await get(path)
        expect(listed.res.status, path).toBe(200)
        expect(listed.source, path).toBeNull()
        before.set(path, listed.body)
      }

      fail()
      // ten minutes on: every copy is past its freshness, the generations are read again and fail
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(Date.now() + 10 * 60_000)
      for (const lang of LANGS)
        for (const path of pages) {
          const page = await get(path, { Cookie: `preferred-language=${lang}` })
          expect(page.res.status, `${lang} ${path}`).toBe(200)
          expect(page.source, `${lang} ${path}`).toBe('stale')
          expect(visibleText(page.body), `${lang} ${path}`).toBe(before.get(`${lang} ${path}`))
        }

      // crawlers and feed readers: the same addresses, from the snapshot, kept by no one
      for (const path of listings) {
        const listed = await get(path)
        expect(listed.res.status, path).toBe(200)
        expect(listed.source, path).toBe('snapshot')
        expect(listed.res.headers.get('Cache-Control'), path).toBe('no-store')
        expect(listed.body, path).toBe(before.get(path))
      }

      // a signed-in visitor's own render: the content from the snapshot; their session cannot be
      // checked (the built-in service's keys are in D1), so the page is a visitor's, and says so
      const mine = await get('/', { Cookie: `${cookie}; preferred-language=fr` })
      expect(mine.res.status).toBe(200)
      expect(mine.source).toBe('snapshot')
      expect(mine.body.includes(fr.outage.account_unavailable)).toBe(true)
      expect(mine.body.includes(`data-session="${email}"`)).toBe(false)
      expect(visibleText(mine.body)).toContain(fr.home.testimonials_title)

      // never served: the blog's category view, from the snapshot
      const category = await get('/blog?category=amazon', { Cookie: 'preferred-language=de' })
      expect(category.res.status).toBe(200)
      expect(category.source).toBe('snapshot')
      expect(category.res.headers.get('Cache-Control')).toBe('no-store')

      // with no snapshot either: the 503 page, in the visitor's language, to come back to
      await env.MEDIA.delete('content-snapshot/case.json')
      const another = site() // (another deploy: none of the copies above)
      another.fail()
      const nothing = await another.get('/portfolio', { Cookie: 'preferred-language=es' })
      expect(nothing.res.status).toBe(503)
      expect(nothing.res.headers.get('Retry-After')).toBe('60')
      expect(nothing.res.headers.get('Content-Type')).toMatch(/^text\/html/)
      expect(nothing.body).toContain('<html lang="es"')
      expect(nothing.body).toContain(es.error_page.unavailable.title)
      expect(nothing.body).toContain('<footer')
      vi.useRealTimers()
      await refreshSnapshots(env)
    },
  )

  it('a person whose session cannot be checked sees the site as a visitor, told so', async () => {
    const { cookie } = await person({ staff: false, secondFactor: false })
    const { get, fail } = site()
    fail()
    // two hours on the access token has expired, and its refresh needs the auth service's D1
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 2 * 3600_000)
    for (const lang of ['en', 'ar'] as const) {
      const page = await get('/faq', { Cookie: `${cookie}; preferred-language=${lang}` })
      expect(page.res.status).toBe(200)
      expect(page.body).toContain('data-session=""')
      expect(page.body).toContain(LOCALES[lang].outage.account_unavailable)
    }
  })

  it('the desk shows the snapshot and refuses a save with the form back as typed', async () => {
    await refreshSnapshots(env)
    const { cookie } = await person({ staff: true, secondFactor: true })
    const { get, fail, env: siteEnv } = site()
    // signed in while D1 answered (the provider's keys are kept by the isolate)
    expect((await get('/desk/content/faq', { Cookie: cookie })).res.status).toBe(200)
    fail()
    const list = await get('/desk/content/faq', { Cookie: `${cookie}; preferred-language=de` })
    expect(list.res.status).toBe(503)
    expect(list.body).toContain(de.outage.desk_snapshot.split('{{at}}')[0])
    // the rest of the desk needs D1: the 503 page, not a page that is not there
    const leads = await get('/desk', { Cookie: cookie })
    expect(leads.res.status).toBe(503)
    expect(leads.body).toContain(en.error_page.unavailable.title)
    // the published questions, read-only
    const { results } = await env.DB.prepare(
      `SELECT t.fields FROM content_items i JOIN content_texts t ON t.item_id = i.id
       WHERE i.kind = 'faq' AND i.status = 'published' AND t.lang = 'en' LIMIT 1`,
    ).all<{ fields: string }>()
    const question = (JSON.parse(results[0].fields) as { q: string }).q
    expect(visibleText(list.body)).toContain(question)

    const form = new FormData()
    for (const [k, v] of Object.entries({
      version: '3',
      lang: 'en',
      action: 'save',
      group: 'billing',
      'text.q': 'Can I pay by invoice?',
      'text.a': 'Yes: typed while the database was away.',
    }))
      form.set(k, v)
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request(`${SITE}/desk/content/faq/1`, {
        method: 'POST',
        headers: { Cookie: `${cookie}; preferred-language=pt`, Origin: SITE },
        body: form,
      }),
      siteEnv,
      ctx,
    )
    const body = await res.text()
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(503)
    expect(res.headers.get('Retry-After')).toBe('60')
    expect(body).toContain(pt.outage.desk_save_refused)
    expect(body).toContain('Yes: typed while the database was away.')
    expect(body).toContain('value="Can I pay by invoice?"')
    expect(body).toContain('action="/desk/content/faq/1"')
  })

  it('with a hosted sign-in service down (D1 fine), the desk says so, and a refused save keeps the item’s status and version', async () => {
    await refreshSnapshots(env)
    const { cookie } = await person({ staff: true, secondFactor: true })
    // a hosted provider whose tokens this site can verify (its key set served), and whose
    // GET /user, which confirms a staff member, answers 503
    const keys = await (await SELF.fetch(`${SITE}/auth/v1/.well-known/jwks.json`)).json()
    const real = globalThis.fetch
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      if (url.host !== 'auth-down.example') return real(input, init)
      if (url.pathname.endsWith('/jwks.json')) return Promise.resolve(Response.json(keys))
      return Promise.resolve(new Response('upstream unavailable', { status: 503 }))
    })
    const hosted = {
      ...env,
      AUTH_URL: 'https://auth-down.example/auth/v1',
      AUTH_API_KEY: 'anon',
      AUTH_ISSUER: `${SITE}/auth/v1`,
    }
    const call = async (path: string, init: RequestInit = {}) => {
      const ctx = createExecutionContext()
      const res = await app.fetch(new Request(SITE + path, init), hosted, ctx)
      const body = await res.text()
      await waitOnExecutionContext(ctx)
      return { res, body }
    }
    const list = await call('/desk/content/faq', {
      headers: { Cookie: `${cookie}; preferred-language=fr` },
    })
    expect(list.res.status).toBe(503)
    expect(visibleText(list.body)).toContain(fr.outage.desk_snapshot_sign_in.split('{{at}}')[0])
    expect(visibleText(list.body)).not.toContain(fr.outage.desk_snapshot.split('{{at}}')[0])

    const faq = await env.DB.prepare(
      "SELECT id, version FROM content_items WHERE kind = 'faq' ORDER BY id LIMIT 1",
    ).first<{ id: number; version: number }>()
    const form = new FormData()
    for (const [k, v] of Object.entries({
      version: String(faq!.version),
      lang: 'en',
      action: 'save',
      group: 'billing',
      'text.q': 'Can I pay by invoice?',
      'text.a': 'Yes: typed while sign-in was away.',
    }))
      form.set(k, v)
    const saved = await call(`/desk/content/faq/${faq!.id}`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: SITE },
      body: form,
    })
    expect(saved.res.status).toBe(503)
    expect(visibleText(saved.body)).toContain(en.outage.desk_save_refused_sign_in)
    expect(saved.body).toContain('Yes: typed while sign-in was away.')
    // D1 answered: the item's status and version line are on the page
    expect(visibleText(saved.body)).toContain(en.desk.content.version.split('{{')[0])
    expect(visibleText(saved.body)).toContain(en.desk.content.statuses.published)
    // and nothing was saved
    const text = await env.DB.prepare(
      "SELECT fields FROM content_texts WHERE item_id = ? AND lang = 'en'",
    )
      .bind(faq!.id)
      .first<{ fields: string }>()
    expect(text!.fields).not.toContain('typed while sign-in was away')
  })

  it('answers a render that fails with the last copy the isolate kept (stale-if-error)', async () => {
    const { get, failContent } = site()
    const first = await get('/portfolio', { Cookie: 'preferred-language=pt' })
    expect(first.res.status).toBe(200)
    // the content's tables fail, the generations still answer; no snapshot of the cases, and
    // the data centre's cache does not have the page (as on *.workers.dev)
    failContent()
    await env.MEDIA.delete('content-snapshot/case.json')
    vi.spyOn(caches.default, 'match').mockResolvedValue(undefined)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 2 * 60_000)
    try {
      const page = await get('/portfolio', { Cookie: 'preferred-language=pt' })
      expect(page.res.status).toBe(200)
      expect(page.source).toBe('stale')
      expect(page.res.headers.get('Retry-After')).toBeNull()
      expect(visibleText(page.body)).toBe(visibleText(first.body))
    } finally {
      vi.restoreAllMocks()
      vi.useRealTimers()
      await refreshSnapshots(env)
    }
  })
})
