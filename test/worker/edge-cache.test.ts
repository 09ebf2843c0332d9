import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SITE, unique } from './auth/helpers'
import { person } from './desk/helpers'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import app from '../../worker/index'
import { NONCE_PLACEHOLDER } from '../../worker/render/cache-key'
import { FRESH_SECONDS } from '../../worker/render/edge-cache'
import { answerFromMemory } from '../../worker/render/edge-memory'
import { copyOf, nonceOutput, withNonceJoined } from '../../worker/render/nonce-slots'

type Point = { indexes: string[]; blobs: string[] }

/**
 * Each test is a deploy of its own (a Worker version id), so the cache starts empty for it and
 * entries of other tests never answer.
 */
function deploy(extra: Record<string, unknown> = {}) {
  const points: Point[] = []
  const deployEnv = {
    ...env,
    CF_VERSION_METADATA: { id: crypto.randomUUID(), tag: '', timestamp: '' },
    ANALYTICS: { writeDataPoint: (p: Point) => points.push(p) },
    ...extra,
  }
  async function get(path: string, headers: Record<string, string> = {}, init: RequestInit = {}) {
    const ctx = createExecutionContext()
    const res = await app.fetch(new Request(SITE + path, { headers, ...init }), deployEnv, ctx)
    const body = await res.text()
    await waitOnExecutionContext(ctx)
    return { res, body, render: res.headers.get('x-render') }
  }
  return { get, points, env: deployEnv }
}

/** The nonce of the Content-Security-Policy header, and every nonce attribute of the page. */
function nonces(res: Response, body: string) {
  const header = /'nonce-([^']+)'/.exec(res.headers.get('Content-Security-Policy') ?? '')?.[1]
  const inPage = [...body.matchAll(/<(script|style|link)\b[^>]*\snonce="([^"]*)"/g)].map(
    (m) => m[2],
  )
  return { header, inPage }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('the edge cache of anonymous pages', () => {
  it('serves the second anonymous request from the cache, with a nonce of its own in header and scripts', async () => {
    const site = deploy()
    const first = await site.get('/about')
    const second = await site.get('/about')
    expect(first.render).toBe('miss')
    expect(second.render).toBe('hit')
    expect(second.res.status).toBe(200)
    expect(second.body).toContain(`<h1`)
    expect(second.body).toContain(en.about.title)

    const a = nonces(first.res, first.body)
    const b = nonces(second.res, second.body)
    expect(a.header).toBeTruthy()
    expect(b.header).toBeTruthy()
    expect(b.header).not.toBe(a.header)
    // the inline and module scripts (JSON-LD, splash, React's bootstrap) all carry it
    expect(b.inPage.length).toBeGreaterThanOrEqual(3)
    expect(new Set(b.inPage)).toEqual(new Set([b.header]))
    expect(new Set(a.inPage)).toEqual(new Set([a.header]))
    expect(second.body).not.toContain(NONCE_PLACEHOLDER)
    // every script tag of the page carries this response's nonce
    for (const tag of second.body.match(/<script\b[^>]*>/g) ?? [])
      expect(tag).toContain(`nonce="${b.header}"`)

    // same page, same security headers as a render
    for (const name of [
      'Strict-Transport-Security',
      'X-Content-Type-Options',
      'Referrer-Policy',
      'X-Frame-Options',
    ])
      expect(second.res.headers.get(name)).toBe(first.res.headers.get(name))
    expect(second.res.headers.get('Content-Language')).toBe('en')
    expect(second.res.headers.get('Vary')).toMatch(/Accept-Language/)
    expect(second.res.headers.get('Vary')).toMatch(/Cookie/)
    // no shared cache downstream may keep a page with its nonce
    expect(second.res.headers.get('Cache-Control')).toBe('private, no-cache')
    expect(first.res.headers.get('Cache-Control')).toBe('private, no-cache')
  })

  it('keys on the negotiated language: another language misses, the same one hits', async () => {
    const site = deploy()
    expect((await site.get('/pricing')).render).toBe('miss')
    const german = await site.get('/pricing', { 'Accept-Language': 'de-DE,de;q=0.9' })
    expect(german.render).toBe('miss')
    expect(german.res.headers.get('Content-Language')).toBe('de')
    expect(german.body).toContain('<html lang="de"')
    const again = await site.get('/pricing', { 'Accept-Language': 'de' })
    expect(again.render).toBe('hit')
    expect(again.body).toContain('<html lang="de"')
    // the language cookie picks the language too, and the page says how it was chosen
    const cookie = await site.get('/pricing', { Cookie: 'preferred-language=ar' })
    expect(cookie.render).toBe('miss')
    expect(cookie.body).toContain('dir="rtl"')
    expect(cookie.body).toContain('data-lang-source="cookie"')
    const query = await site.get('/pricing?lang=ar')
    expect(query.render).toBe('miss')
    expect(query.body).toContain('data-lang-source="query"')
    // ?lang= still remembers the choice, on a hit as on a render
    const queryHit = await site.get('/pricing?lang=ar&utm_source=newsletter')
    expect(queryHit.render).toBe('hit')
    expect(queryHit.res.headers.get('Set-Cookie')).toMatch(/preferred-language=ar/)
  })

  it('keeps the parameters that change a page apart, and shares the page across the others', async () => {
    const site = deploy()
    const all = await site.get('/blog')
    const tagged = await site.get('/blog?utm_campaign=spring')
    expect([all.render, tagged.render]).toEqual(['miss', 'hit'])
    const filtered = await site.get('/blog?category=amazon')
    expect(filtered.render).toBe('miss')
  })

  it('misses after a new deploy', async () => {
    const site = deploy()
    await site.get('/faq')
    expect((await site.get('/faq')).render).toBe('hit')
    const next = deploy()
    expect((await next.get('/faq')).render).toBe('miss')
    // and after a changed setting, which in production is a new version as well
    const rephoned = deploy({ ...site.env, AGENCY_PHONE: '+44 20 0000 0000' })
    const page = await rephoned.get('/faq')
    expect(page.render).toBe('miss')
  })

  it('renders for whoever has a session, a notice or a form result of their own', async () => {
    const site = deploy()
    await site.get('/contact')
    expect((await site.get('/contact')).render).toBe('hit')

    // signed in: the Account menu and their address, never the anonymous copy
    const { email, cookie: jar } = await person({ staff: false, secondFactor: false })
    const signedIn = await site.get('/contact', { Cookie: jar })
    expect(signedIn.render).toBe('bypass')
    expect(signedIn.body).toContain(email)
    expect(signedIn.body).toContain(`>${en.auth.account}<`)

    // a notice left by the previous response
    const notice = JSON.stringify({ title: 'Signed out' })
    const flashed = await site.get('/contact', { Cookie: `flash=${encodeURIComponent(notice)}` })
    expect(flashed.render).toBe('bypass')
    expect(flashed.body).toContain('data-flash=')

    // a form's result page (a post without JavaScript) is the visitor's own
    const posted = await site.get(
      '/api/newsletter',
      {
        'Content-Type': 'application/x-www-form-urlencoded',
        'CF-Connecting-IP': '198.51.100.78',
        Origin: SITE,
      },
      {
        method: 'POST',
        body: new URLSearchParams({ email: unique('cache'), website: '' }).toString(),
      },
    )
    expect(posted.res.status).toBe(200)
    expect(posted.render).toBe('bypass')
    // without JavaScript there is no challenge token: the address is kept, nothing is e-mailed
    expect(posted.body).toContain(en.notices.newsletter_unchecked_title)

    // and the anonymous copy is still the anonymous one
    const after = await site.get('/contact')
    expect(after.render).toBe('hit')
    expect(after.body).not.toContain(email)
    expect(after.body).not.toContain('data-flash=')
  })

  it('keeps the consent banner right: the tracker choice is part of the key', async () => {
    const site = deploy({ GA_MEASUREMENT_ID: 'G-TEST123' })
    const unset = await site.get('/')
    expect(unset.body).toContain('data-consent="unset"')
    const granted = await site.get('/', { Cookie: 'tracking-consent=granted' })
    expect(granted.render).toBe('miss')
    expect(granted.body).toContain('data-consent="granted"')
    expect((await site.get('/')).body).toContain('data-consent="unset"')
  })

  it('counts a page view for a hit as for a render', async () => {
    const site = deploy()
    await site.get('/services')
    const hit = await site.get('/services')
    expect(hit.render).toBe('hit')
    const views = site.points.filter((p) => p.indexes[0] === 'pageview')
    expect(views.map((p) => p.blobs[0])).toEqual(['/services', '/services'])
  })

  it('stores neither errors nor pages outside the cache', async () => {
    const site = deploy()
    const missing = await site.get('/services/no-such-service')
    expect(missing.res.status).toBe(404)
    expect((await site.get('/services/no-such-service')).render).toBe('bypass')
    const missingNonce = nonces(missing.res, missing.body)
    expect(new Set(missingNonce.inPage)).toEqual(new Set([missingNonce.header]))
    expect((await site.get('/book')).render).toBe('bypass')
    expect((await site.get('/auth')).render).toBe('bypass')
  })
})

describe("the isolate's memory", () => {
  it('answers a page it keeps before the app: the same headers and bytes, a nonce of its own', async () => {
    const site = deploy()
    const first = await site.get('/portfolio', { 'Accept-Language': 'fr' })
    expect(first.render).toBe('miss')
    const ctx = createExecutionContext()
    const kept = answerFromMemory(
      new Request(SITE + '/portfolio?utm_source=ad', { headers: { 'Accept-Language': 'fr' } }),
      site.env as never,
      ctx,
    )
    expect(kept).toBeDefined()
    const body = await kept!.text()
    await waitOnExecutionContext(ctx)
    expect(kept!.headers.get('x-render')).toBe('hit')
    const a = nonces(first.res, first.body)
    const b = nonces(kept!, body)
    expect(b.header).toBeTruthy()
    expect(b.header).not.toBe(a.header)
    expect(new Set(b.inPage)).toEqual(new Set([b.header]))
    expect(body).toBe(first.body.replaceAll(a.header!, b.header!))
    // every header the app sent, the nonce and the path aside
    const perResponse = ['content-security-policy', 'x-render', 'age', 'date']
    const of = (res: Response) =>
      [...res.headers].filter(([name]) => !perResponse.includes(name)).sort()
    expect(of(kept!)).toEqual(of(first.res))
    expect(kept!.headers.get('Content-Security-Policy')).toBe(
      first.res.headers.get('Content-Security-Policy')!.replaceAll(a.header!, b.header!),
    )
    // and the visit counted, in its language
    const views = site.points.filter((p) => p.indexes[0] === 'pageview')
    expect(views.map((p) => [p.blobs[0], p.blobs[1]])).toEqual([
      ['/portfolio', 'fr'],
      ['/portfolio', 'fr'],
    ])
  })

  it('leaves to the app whatever is not an anonymous read of a page it keeps', async () => {
    const site = deploy()
    await site.get('/faq')
    const ask = (init: RequestInit & { path?: string } = {}, env = site.env) =>
      answerFromMemory(
        new Request(SITE + (init.path ?? '/faq'), init),
        env as never,
        createExecutionContext(),
      )
    expect(ask()).toBeDefined()
    expect(ask({ headers: { Cookie: 'sb-access-token=x' } })).toBeUndefined()
    expect(ask({ headers: { Cookie: 'flash=%7B%7D' } })).toBeUndefined()
    expect(ask({ path: '/faq?lang=en' })).toBeUndefined()
    expect(ask({ method: 'HEAD' })).toBeUndefined()
    expect(ask({ headers: { 'Accept-Language': 'es' } })).toBeUndefined()
    expect(ask({ path: '/pricing' })).toBeUndefined()
    expect(ask({ headers: { 'x-render-refresh': '1' } })).toBeUndefined()
    expect(ask({}, deploy().env)).toBeUndefined()
  })
})

describe("the memory's key and join", () => {
  it('reads the query as the app does, so an undecodable value is not another page', async () => {
    const site = deploy()
    // %FF is not UTF-8: the app keeps it as written, so it is not the U+FFFD page below
    expect((await site.get('/blog?category=%EF%BF%BD')).render).toBe('miss')
    const ask = (path: string) =>
      answerFromMemory(new Request(SITE + path), site.env as never, createExecutionContext())
    expect(ask('/blog?category=%EF%BF%BD')).toBeDefined()
    expect(ask('/blog?category=%FF')).toBeUndefined()
    expect((await site.get('/blog?category=%FF')).render).toBe('miss')
  })

  it('writes a nonce of any length where the placeholders were', () => {
    const page = `<script nonce="${NONCE_PLACEHOLDER}">1</script><p>ق</p><script nonce="${NONCE_PLACEHOLDER}"></script>`
    const copy = copyOf(new TextEncoder().encode(page), 'text/html', Date.now())
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
    for (const nonce of [
      'abcdefghijklmnopqrstuvwx',
      'short',
      'a-much-longer-nonce-than-the-usual-one',
    ])
      expect(text(withNonceJoined(copy, nonce))).toBe(page.replaceAll(NONCE_PLACEHOLDER, nonce))
    // the copy itself stays as rendered
    expect(text(copy.page)).toBe(page)
  })

  it('writes the nonce into each flush of a render and keeps the page as rendered, once whole', () => {
    const page = `<script nonce="${NONCE_PLACEHOLDER}">1</script><p>ق ${'x'.repeat(40)}</p><link nonce="${NONCE_PLACEHOLDER}"><style nonce="${NONCE_PLACEHOLDER}"></style>${NONCE_PLACEHOLDER}`
    // React flushes whole pieces: cut anywhere but inside a placeholder
    const inside = (at: number) =>
      [...page.matchAll(new RegExp(NONCE_PLACEHOLDER, 'g'))].some(
        (m) => at > m.index && at < m.index + NONCE_PLACEHOLDER.length,
      )
    const text = (bytes: Uint8Array[]) =>
      bytes.map((b) => new TextDecoder().decode(b, { stream: true })).join('')
    for (let a = 0; a <= page.length; a += 3)
      for (let b = a; b <= page.length; b += 7) {
        if (inside(a) || inside(b)) continue
        for (const nonce of b % 5
          ? ['abcdefghijklmnopqrstuvwx']
          : ['abcdefghijklmnopqrstuvwx', 'other-length']) {
          const output = nonceOutput(nonce)
          const sent = [page.slice(0, a), page.slice(a, b), page.slice(b)].map((html) =>
            output.encode(html),
          )
          let kept: Uint8Array | undefined
          let slots: number[] = []
          output.whole((rendered, at) => {
            kept = rendered
            slots = at
          })
          // not before the last flush has gone
          expect(kept).toBeUndefined()
          output.end()
          expect(text(sent)).toBe(page.replaceAll(NONCE_PLACEHOLDER, nonce))
          expect(new TextDecoder().decode(kept)).toBe(page)
          // where the placeholders are, as found on the way: a hit writes its nonce there
          expect(slots).toEqual(copyOf(kept!, 'text/html', 0).slots)
          expect(slots).toHaveLength(4)
        }
      }
  })

  it('keeps a page whole already at once, and a render cut short never', () => {
    const html = `<p>${'x'.repeat(30)}</p><script nonce="${NONCE_PLACEHOLDER}"></script>`
    const whole = nonceOutput('abcdefghijklmnopqrstuvwx')
    whole.encode(html)
    whole.end()
    const kept: string[] = []
    whole.whole((page) => kept.push(new TextDecoder().decode(page)))
    expect(kept).toEqual([html])
    const cut = nonceOutput('abcdefghijklmnopqrstuvwx')
    cut.encode(html)
    cut.whole(() => kept.push('cut'))
    expect(kept).toEqual([html])
  })

  it('sends the whole page even when keeping its copy fails', () => {
    const page = `<p>${'x'.repeat(30)}</p><script nonce="${NONCE_PLACEHOLDER}"></script>`
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const output = nonceOutput('abcdefghijklmnopqrstuvwx')
    output.whole(() => {
      throw new Error('no room')
    })
    const sent = output.encode(page)
    output.end()
    expect(new TextDecoder().decode(sent)).toBe(
      page.replaceAll(NONCE_PLACEHOLDER, 'abcdefghijklmnopqrstuvwx'),
    )
    expect(error).toHaveBeenCalled()
    error.mockRestore()
  })
})

describe('a stale page', () => {
  it('is served, and rendered again in the background for the next visitor', async () => {
    const path = `/terms-of-service?lang=pt`
    const fetchPage = async () => {
      const res = await SELF.fetch(SITE + path)
      return {
        render: res.headers.get('x-render'),
        age: Number(res.headers.get('Age')),
        body: await res.text(),
      }
    }
    await fetchPage()
    const fresh = await fetchPage()
    expect(fresh.render).toBe('hit')
    expect(fresh.age).toBeLessThan(FRESH_SECONDS)
    vi.useFakeTimers({ now: Date.now() + (FRESH_SECONDS + 60) * 1000, toFake: ['Date'] })
    const stale = await fetchPage()
    expect(stale.render).toBe('hit')
    expect(stale.age).toBeGreaterThan(FRESH_SECONDS)
    expect(stale.body).toContain('lang="pt"')
    // the refresh runs after that response: the next visitor gets the new copy
    await vi.waitFor(
      async () => {
        const next = await fetchPage()
        expect(next.render).toBe('hit')
        expect(next.age).toBeLessThan(10)
      },
      { timeout: 5_000, interval: 100 },
    )
  })
})

describe('the page tail', () => {
  it('is the same HTML whether rendered with the page or pasted from the first render', async () => {
    const site = deploy({ GA_MEASUREMENT_ID: 'G-TEST123' })
    // a refresh renders every time (the edge re-rendering a stale page)
    const render = async (path: string, headers: Record<string, string> = {}) => {
      const { res, body } = await site.get(path, { 'x-render-refresh': '1', ...headers })
      const nonce = nonces(res, body).header!
      return body.replaceAll(nonce, 'NONCE').replaceAll('" />', '"/>')
    }
    const tail = (html: string) => html.slice(html.indexOf('</main>'))
    const variants: Record<string, string>[] = [
      {},
      { 'Accept-Language': 'ar' },
      { Cookie: 'tracking-consent=granted' },
    ]
    for (const headers of variants) {
      const first = await render('/contact', headers)
      const again = await render('/contact', headers)
      expect(again).toBe(first)
      const other = await render('/about', headers)
      expect(tail(other)).toBe(tail(first))
    }
    const arabic = tail(await render('/faq', { 'Accept-Language': 'ar' }))
    expect(arabic).toContain('<footer')
    expect(arabic).toContain(ar.footer.rights)
    expect(arabic).not.toContain(en.footer.rights)
    expect(arabic).toContain('data-island="newsletter-form"')
    const granted = tail(await render('/faq', { Cookie: 'tracking-consent=granted' }))
    const unset = tail(await render('/faq'))
    expect(granted).not.toBe(unset)
  })
})
