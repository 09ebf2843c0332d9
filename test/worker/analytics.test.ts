import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { freshMinute } from './clock'
import app from '../../worker/index'
import { randomIp } from './random-ip'

type Point = { indexes: string[]; blobs: string[]; doubles: number[] }

/** Runs one request through the worker with a recording Analytics Engine binding. */
async function run(request: Request, overrides: Record<string, unknown> = {}) {
  const points: Point[] = []
  const ctx = createExecutionContext()
  const res = await app.fetch(
    request,
    {
      ...env,
      ENVIRONMENT: 'test',
      ANALYTICS: { writeDataPoint: (p: Point) => points.push(p) },
      ...overrides,
    },
    ctx,
  )
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body, points }
}

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1'

describe('page views', () => {
  it('writes one data point per render with what the agency needs and nothing personal', async () => {
    const request = new Request('https://example.com/about?lang=fr&utm_source=mail', {
      headers: {
        'User-Agent': IPHONE,
        Referer: 'https://www.google.com/search?q=agency',
        'CF-Connecting-IP': '203.0.113.9',
        Cookie: 'preferred-language=de',
      },
      cf: { country: 'GB', colo: 'LHR' },
    } as RequestInit)
    const { res, points } = await run(request)
    expect(res.status).toBe(200)
    expect(points).toHaveLength(1)
    const [p] = points
    expect(p.indexes).toEqual(['pageview'])
    expect(p.blobs).toEqual([
      '/about',
      'fr',
      'GB',
      'LHR',
      'www.google.com',
      'mobile',
      'human',
      'signed-out',
      '',
    ])
    expect(p.doubles[0]).toBe(200)
    expect(p.doubles[1]).toBeGreaterThanOrEqual(0)
    expect(p.doubles[2]).toBe(1)
    const all = JSON.stringify(p)
    for (const personal of [
      '203.0.113.9',
      'iPhone',
      'utm_source',
      'q=agency',
      'preferred-language',
    ])
      expect(all).not.toContain(personal)
  })

  it('marks known bots and counts unknown pages as not found', async () => {
    const bot = await run(
      new Request('https://example.com/', {
        headers: {
          'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
        },
      }),
    )
    expect(bot.points[0].blobs[6]).toBe('bot')
    expect(bot.points[0].blobs[5]).toBe('desktop')
    const missing = await run(new Request('https://example.com/no/such/page?email=a@b.c'))
    expect(missing.res.status).toBe(404)
    expect(missing.points[0].blobs[0]).toBe('(not found)')
    expect(missing.points[0].doubles[0]).toBe(404)
  })

  it('does not count API calls, feeds or files', async () => {
    for (const path of ['/sitemap.xml', '/robots.txt', '/blog/rss.xml', '/api/bookings/slots'])
      expect((await run(new Request(`https://example.com${path}`))).points, path).toEqual([])
  })

  it('serves the page whole even when the analytics binding fails', async () => {
    const broken = {
      writeDataPoint: () => {
        throw new Error('analytics down')
      },
    }
    const { res, body } = await run(new Request('https://example.com/pricing'), {
      ANALYTICS: broken,
    })
    expect(res.status).toBe(200)
    expect(body).toContain('</html>')
    const missing = await run(new Request('https://example.com/pricing'), { ANALYTICS: undefined })
    expect(missing.res.status).toBe(200)
  })

  it('keeps a copy in D1 in development, for npm run stats', async () => {
    const before = await env.DB.prepare('SELECT count(*) AS n FROM dev_analytics').first<{
      n: number
    }>()
    await run(new Request('https://example.com/faq'), { ENVIRONMENT: 'development' })
    const after = await env.DB.prepare(
      'SELECT index1, blobs FROM dev_analytics ORDER BY id DESC',
    ).first<{ index1: string; blobs: string }>()
    expect(after?.index1).toBe('pageview')
    expect(JSON.parse(after!.blobs)[0]).toBe('/faq')
    expect(
      (await env.DB.prepare('SELECT count(*) AS n FROM dev_analytics').first<{ n: number }>())!.n,
    ).toBe(before!.n + 1)
  })
})

const postEvent = (body: unknown, headers: Record<string, string> = {}) =>
  run(
    new Request('https://example.com/api/events', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'CF-Connecting-IP': randomIp(),
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  )

describe('POST /api/events', () => {
  it('records an allowed conversion event with its small properties', async () => {
    const { res, points } = await postEvent({
      name: 'booking_opened',
      path: '/services/amazon',
      props: { from: 'widget' },
    })
    expect(res.status).toBe(204)
    expect(points).toHaveLength(1)
    expect(points[0].indexes).toEqual(['booking_opened'])
    expect(points[0].blobs[0]).toBe('/services/amazon')
    expect(points[0].blobs[8]).toBe('{"from":"widget"}')
  })

  it.each([
    ['an unknown name', { name: 'purchase', path: '/' }],
    ['a path with a query', { name: 'lead', path: '/?email=a@b.c' }],
    [
      'too many props',
      { name: 'lead', path: '/', props: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 } },
    ],
    ['a long prop value', { name: 'lead', path: '/', props: { form: 'x'.repeat(65) } }],
    ['a nested prop', { name: 'lead', path: '/', props: { form: { deep: true } } }],
    ['a wrong type', { name: 42, path: '/' }],
    ['extra fields', { name: 'lead', path: '/', email: 'a@b.c' }],
  ])('refuses %s with 400, recording nothing', async (_, body) => {
    const { res, points } = await postEvent(body)
    expect(res.status).toBe(400)
    expect(points).toEqual([])
  })

  // up to 10 s more: the wait for a fresh minute (clock.ts)
  it(
    'refuses big bodies (413), cross-site posts (403) and floods (429)',
    { timeout: 60_000 },
    async () => {
      expect(
        (await postEvent({ name: 'lead', path: '/', props: { a: 'x'.repeat(3000) } })).res.status,
      ).toBe(413)
      expect(
        (await postEvent({ name: 'lead', path: '/' }, { Origin: 'https://evil.example' })).res
          .status,
      ).toBe(403)
      const statuses: number[] = []
      const ip = randomIp()
      await freshMinute()
      for (let i = 0; i < 62; i++)
        statuses.push(
          (await postEvent({ name: 'whatsapp_click', path: '/' }, { 'CF-Connecting-IP': ip })).res
            .status,
        )
      // production allows 60 a minute; miniflare applies the first [[ratelimits]] limit (10) to
      // every limiter binding, so locally the flood is cut sooner
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(204))
      const first429 = statuses.indexOf(429)
      expect(first429).toBeGreaterThanOrEqual(10)
      expect(first429).toBeLessThanOrEqual(60)
      expect(statuses.slice(first429).every((s) => s === 429)).toBe(true)
    },
  )
})

describe('trackers and consent', () => {
  const TRACKERS = { META_PIXEL_ID: '123456789012345', GA_MEASUREMENT_ID: 'G-ABC123XYZ' }

  it('has no banner, no tracker and no tracker host in the CSP by default', async () => {
    const res = await SELF.fetch('https://example.com/')
    const html = await res.text()
    expect(html).not.toContain('consent-banner')
    expect(html).not.toContain('data-trackers')
    expect(res.headers.get('content-security-policy')).not.toMatch(/googletagmanager|facebook/)
  })

  it('asks first when trackers are configured, and allows their hosts', async () => {
    const { res, body } = await run(new Request('https://example.com/'), TRACKERS)
    expect(body).toMatch(/<section id="consent-banner"(?![^>]*hidden)/)
    expect(body).toContain('data-consent="unset"')
    expect(body).toContain('href="/privacy-policy"')
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toMatch(
      /script-src 'self' 'nonce-[^']+' https:\/\/www\.googletagmanager\.com https:\/\/connect\.facebook\.net/,
    )
  })

  it('remembers the choice six months in an HttpOnly cookie and stops asking', async () => {
    const { res } = await run(
      new Request('https://example.com/api/consent', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ choice: 'granted' }),
      }),
      TRACKERS,
    )
    expect(res.status).toBe(204)
    const cookie = res.headers.get('set-cookie')!
    expect(cookie).toMatch(
      /^tracking-consent=granted; Max-Age=15811200; Path=\/; HttpOnly; Secure; SameSite=Lax/,
    )
    const page = await run(
      new Request('https://example.com/', { headers: { Cookie: 'tracking-consent=granted' } }),
      TRACKERS,
    )
    expect(page.body).toContain('data-consent="granted"')
    expect(page.body).toMatch(/<section id="consent-banner"[^>]*hidden/)
    const bad = await run(
      new Request('https://example.com/api/consent', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ choice: 'maybe' }),
      }),
      TRACKERS,
    )
    expect(bad.res.status).toBe(400)
  })
})

describe('POST /api/events with a broken body', () => {
  it('answers a malformed JSON body with a clear 400 in JSON, never a 5xx', async () => {
    const res = await SELF.fetch('https://example.com/api/events', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': '198.51.100.90' },
      body: '{"name": "lead",',
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: expect.any(String) })
  })
})
