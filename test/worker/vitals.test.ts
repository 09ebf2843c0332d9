import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import en from '../../locales/en.json'
import { vitalsReport, weightedQuantile, type Asker } from '../../worker/analytics/vitals-report'
import app from '../../worker/index'
import { get, person } from './desk/helpers'
import { randomIp } from './random-ip'

// Real visitors' Core Web Vitals: the beacon (POST /api/vitals), what is stored of it, and the
// 75th percentiles the desk's Speed page and `npm run stats` show.

type Point = { indexes: string[]; blobs: string[]; doubles: number[] }

const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'

/** A beacon as a browser sends it, through the worker with a recording Analytics Engine. */
async function beacon(body: unknown, headers: Record<string, string> = {}) {
  const points: Point[] = []
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request('https://example.com/api/vitals', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': ANDROID,
        'CF-Connecting-IP': randomIp(),
        Cookie: 'preferred-language=de',
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      cf: { country: 'NG', colo: 'LOS' },
    } as RequestInit),
    {
      ...env,
      ENVIRONMENT: 'test',
      ANALYTICS: { writeDataPoint: (p: Point) => points.push(p) },
      CF_VERSION_METADATA: { id: 'version-7', tag: '', timestamp: '' },
    },
    ctx,
  )
  await res.text()
  await waitOnExecutionContext(ctx)
  return { res, points }
}

const visit = {
  path: '/services/amazon',
  lang: 'ar',
  metrics: [
    { name: 'LCP', value: 2300.4 },
    { name: 'INP', value: 240 },
    { name: 'CLS', value: 0.31 },
    { name: 'FCP', value: 900 },
    { name: 'TTFB', value: 95000 },
  ],
}

describe('POST /api/vitals', () => {
  it('stores one data point per metric, rated by the server, with nothing personal', async () => {
    const { res, points } = await beacon(visit)
    expect(res.status).toBe(204)
    expect(points.map((p) => p.indexes[0])).toEqual(Array(5).fill('web_vital'))
    expect(points[0].blobs).toEqual([
      '/services/amazon',
      // the page's language, not the cookie's
      'ar',
      'NG',
      'LOS',
      '',
      'mobile',
      'human',
      'signed-out',
      '',
      'LCP',
      'good',
      'version-7',
    ])
    expect(points.map((p) => [p.blobs[9], p.blobs[10], p.doubles[3]])).toEqual([
      ['LCP', 'good', 2300.4],
      ['INP', 'needs-improvement', 240],
      ['CLS', 'poor', 0.31],
      ['FCP', 'good', 900],
      // a stuck tab's 95 s counts as a minute: as poor as it gets, and no more
      ['TTFB', 'poor', 60000],
    ])
    const all = JSON.stringify(points)
    for (const personal of ['198.19.0', 'Pixel', 'Android', 'preferred-language'])
      expect(all).not.toContain(personal)
  })

  it('keeps a copy in D1 in development, which the report reads', async () => {
    await env.DB.prepare("DELETE FROM dev_analytics WHERE index1 = 'web_vital'").run()
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request('https://example.com/api/vitals', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': '198.19.1.1' },
        body: JSON.stringify(visit),
      }),
      { ...env, ENVIRONMENT: 'development' },
      ctx,
    )
    expect(res.status).toBe(204)
    await waitOnExecutionContext(ctx)
    const report = await vitalsReport(devMirror, 7)
    expect(report.site.LCP).toEqual({
      p75: 2300.4,
      visits: 1,
      good: 1,
      needsImprovement: 0,
      poor: 0,
    })
    expect(report.pages.map((p) => p.label)).toEqual(['/services/amazon'])
  })

  const refused: [string, unknown, number][] = [
    ['an unknown metric', { ...visit, metrics: [{ name: 'FID', value: 10 }] }, 400],
    ['a negative value', { ...visit, metrics: [{ name: 'LCP', value: -1 }] }, 400],
    ['an absurd value', { ...visit, metrics: [{ name: 'INP', value: 3_600_000 }] }, 400],
    ['an absurd layout shift', { ...visit, metrics: [{ name: 'CLS', value: 1000 }] }, 400],
    ['a value that is no number', { ...visit, metrics: [{ name: 'LCP', value: '1e3' }] }, 400],
    [
      'a metric twice',
      {
        ...visit,
        metrics: [
          { name: 'LCP', value: 1 },
          { name: 'LCP', value: 2 },
        ],
      },
      400,
    ],
    ['no metric', { ...visit, metrics: [] }, 400],
    ['a path with a query', { ...visit, path: '/?email=a@b.c' }, 400],
    ['an unknown language', { ...visit, lang: 'xx' }, 400],
    ['extra fields', { ...visit, email: 'a@b.c' }, 400],
    ['a body that is not JSON', 'LCP=1', 400],
    ['an oversized body', { ...visit, path: `/${'a'.repeat(150)}`, pad: 'x'.repeat(1200) }, 413],
  ]
  it.each(refused)('refuses %s, storing nothing', async (_, body, status) => {
    const { res, points } = await beacon(body)
    expect(res.status).toBe(status)
    expect(points).toEqual([])
  })

  it('refuses a post from another site, storing nothing', async () => {
    const crossSite: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'cross-site' },
    ]
    for (const headers of crossSite) {
      const { res, points } = await beacon(visit, headers)
      expect(res.status).toBe(403)
      expect(points).toEqual([])
    }
  })
})

/** The development copy, as the desk reads it (analytics/report.ts askerOf). */
const devMirror: Asker = {
  store: 'dev-mirror',
  query: async (sql) => (await env.DB.prepare(sql).all<Record<string, unknown>>()).results,
}

const DAY = 86_400_000
type Seed = {
  metric: string
  value: number
  path?: string
  device?: string
  country?: string
  daysAgo?: number
  bot?: boolean
}
const rating = (metric: string, v: number) => {
  const [good, poor] = {
    LCP: [2500, 4000],
    INP: [200, 500],
    CLS: [0.1, 0.25],
    FCP: [1800, 3000],
    TTFB: [800, 1800],
  }[metric]!
  return v <= good ? 'good' : v <= poor ? 'needs-improvement' : 'poor'
}

/** dev_analytics rows exactly as worker/analytics/record.ts writes a vital in development. */
async function seed(rows: Seed[], now: number) {
  await env.DB.prepare('DELETE FROM dev_analytics').run()
  const insert = env.DB.prepare(
    'INSERT INTO dev_analytics (index1, blobs, doubles, created_at) VALUES (?, ?, ?, ?)',
  )
  await env.DB.batch(
    rows.map((r) =>
      insert.bind(
        'web_vital',
        JSON.stringify([
          r.path ?? '/',
          'en',
          r.country ?? 'GB',
          'LHR',
          '',
          r.device ?? 'mobile',
          r.bot ? 'bot' : 'human',
          'signed-out',
          '',
          r.metric,
          rating(r.metric, r.value),
          'v1',
        ]),
        JSON.stringify([200, 0, 1, r.value]),
        new Date(now - (r.daysAgo ?? 0) * DAY).toISOString(),
      ),
    ),
  )
}

describe('the 75th percentiles', () => {
  it('takes the value three visits in four reach, each visit counted by its weight', () => {
    // by hand: sorted 100 200 300 400; 0.75 × 4 = 3, the third value
    expect(
      weightedQuantile(
        [400, 100, 300, 200].map((value) => ({ value, weight: 1 })),
        0.75,
      ),
    ).toBe(300)
    // 0.75 × 5 = 3.75: the fourth of five
    expect(
      weightedQuantile(
        [1, 2, 3, 4, 5].map((value) => ({ value, weight: 1 })),
        0.75,
      ),
    ).toBe(4)
    // one row sampled 1 in 10 stands for ten visits: 100 × 1, 200 × 1, 900 × 10; 0.75 × 12 = 9
    // falls among the ten, though unweighted it would be 200 (the second of three)
    expect(
      weightedQuantile(
        [
          { value: 100, weight: 1 },
          { value: 200, weight: 1 },
          { value: 900, weight: 10 },
        ],
        0.75,
      ),
    ).toBe(900)
    // and the other way: 100 × 10, 200 × 1, 900 × 1; 0.75 × 12 = 9 is reached by the tenth 100
    expect(
      weightedQuantile(
        [
          { value: 100, weight: 10 },
          { value: 200, weight: 1 },
          { value: 900, weight: 1 },
        ],
        0.75,
      ),
    ).toBe(100)
    expect(weightedQuantile([], 0.75)).toBeNull()
  })

  it('reports site-wide, per page, device and country and per day, with shares and counts', async () => {
    const now = Date.UTC(2026, 11, 2, 15, 0)
    const lcp = [1200, 1800, 2400, 2600, 3000, 4200, 5000, 800]
    await seed(
      [
        // eight LCPs: four on /, three on /pricing, one on /blog from a desktop
        ...lcp.slice(0, 4).map((value) => ({ metric: 'LCP', value, path: '/' })),
        ...lcp
          .slice(4, 7)
          .map((value) => ({ metric: 'LCP', value, path: '/pricing', country: 'NG', daysAgo: 2 })),
        { metric: 'LCP', value: lcp[7], path: '/blog', device: 'desktop', country: 'SA' },
        { metric: 'CLS', value: 0.02, path: '/' },
        { metric: 'CLS', value: 0.3, path: '/' },
        { metric: 'INP', value: 150, path: '/' },
        // a crawler, and a visit 40 days ago: neither counts
        { metric: 'LCP', value: 60_000, bot: true },
        { metric: 'LCP', value: 60_000, daysAgo: 40 },
      ],
      now,
    )
    const report = await vitalsReport(devMirror, 30, now)
    expect(report.source).toBe('dev-mirror')
    // by hand: sorted 800 1200 1800 2400 2600 3000 4200 5000; 0.75 × 8 = 6, the sixth: 3000.
    // good (≤ 2500) 800 1200 1800 2400: 4; poor (> 4000) 4200 5000: 2; the rest 2
    expect(report.site.LCP).toEqual({ p75: 3000, visits: 8, good: 4, needsImprovement: 2, poor: 2 })
    // two CLS: 0.75 × 2 = 1.5, the second
    expect(report.site.CLS).toEqual({ p75: 0.3, visits: 2, good: 1, needsImprovement: 0, poor: 1 })
    expect(report.site.INP.p75).toBe(150)
    expect(report.site.TTFB).toEqual({
      p75: null,
      visits: 0,
      good: 0,
      needsImprovement: 0,
      poor: 0,
    })

    // pages by visits: / has 4 LCPs (sorted 1200 1800 2400 2600: the third), /pricing 3
    // (3000 4200 5000; 0.75 × 3 = 2.25, the third), /blog 1
    expect(report.pages.map((p) => [p.label, p.visits, p.figures.LCP.p75])).toEqual([
      ['/', 4, 2400],
      ['/pricing', 3, 5000],
      ['/blog', 1, 800],
    ])
    // the seven from phones: 1200 … 5000; 0.75 × 7 = 5.25, the sixth
    expect(report.devices.map((d) => [d.label, d.visits, d.figures.LCP.p75])).toEqual([
      ['mobile', 7, 4200],
      ['desktop', 1, 800],
    ])
    expect(report.countries.map((c) => [c.label, c.visits])).toEqual([
      ['GB', 4],
      ['NG', 3],
      ['SA', 1],
    ])
    // thirty days, today last; /pricing's visits two days ago
    expect(report.perDay).toHaveLength(30)
    expect(report.perDay[29].day).toBe('2026-12-02')
    expect(report.perDay[29].figures.LCP.p75).toBe(2400)
    expect(report.perDay[27].figures.LCP).toMatchObject({ p75: 5000, visits: 3 })
    expect(report.perDay[28].figures.LCP.p75).toBeNull()
  })

  it('asks Analytics Engine for weighted quantiles and reads its answer', async () => {
    const asked: string[] = []
    const ae: Asker = {
      store: 'analytics-engine',
      query: async (sql) => {
        asked.push(sql)
        const day = sql.includes('intDiv(toUInt32(timestamp), 86400) AS label')
        // sums of UInt64 come as strings
        return [
          {
            metric: 'LCP',
            label: day
              ? Math.floor(Date.UTC(2026, 11, 2) / DAY)
              : sql.includes("'' AS label")
                ? ''
                : 'x',
            p75: 2100,
            n: '40',
            good: '30',
            poor: '4',
          },
        ]
      },
    }
    const report = await vitalsReport(ae, 7, Date.UTC(2026, 11, 2, 9))
    expect(asked).toHaveLength(5)
    for (const sql of asked) {
      expect(sql).toContain('quantileWeighted(0.75, double4, _sample_interval)')
      expect(sql).toContain('SUM(_sample_interval)')
      expect(sql).toContain("index1 = 'web_vital' AND blob7 != 'bot'")
      expect(sql).toContain(`toUInt32(timestamp) >= ${Date.UTC(2026, 10, 26) / 1000}`)
    }
    expect(report.site.LCP).toEqual({
      p75: 2100,
      visits: 40,
      good: 30,
      needsImprovement: 6,
      poor: 4,
    })
    expect(report.perDay[6]).toMatchObject({ day: '2026-12-02', figures: { LCP: { p75: 2100 } } })

    // the SQL API down: the page says so instead of figures
    const down = await vitalsReport(
      { store: 'analytics-engine', query: () => Promise.reject(new Error('timeout')) },
      7,
    )
    expect(down.unavailable).toBe(true)
  })
})

describe('/desk/speed', { timeout: 60_000 }, () => {
  it('shows the figures to staff, in English and Arabic, and nothing to a visitor', async () => {
    const { cookie } = await person({ staff: true, secondFactor: true })
    await seed(
      [
        { metric: 'LCP', value: 1900, path: '/' },
        { metric: 'LCP', value: 4600, path: '/pricing' },
        { metric: 'INP', value: 350, path: '/' },
      ],
      Date.now(),
    )
    const res = await get('/desk/speed?days=7', cookie)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('href="/desk/speed" aria-current="page"')
    // the desk is not measured; the public pages are (client/enhance/vitals.ts)
    expect(html).not.toContain('data-vitals')
    expect(await (await get('/pricing')).text()).toContain('data-vitals="/pricing"')
    // a mistyped address counts as no page of the site's, as page views do
    expect(await (await get('/pricing/no-such-page')).text()).toContain('data-vitals="(not found)"')
    expect(html).toContain('href="/desk/speed?days=7" aria-current="page"')
    // 1900 and 4600: 0.75 × 2 = 1.5, the second
    expect(html).toMatch(/data-metric="LCP".*?data-p75="4600">4\.6s</s)
    expect(html).toContain(en.desk_speed.ratings.poor)
    // one line chart a metric, each with its text alternative
    expect(html.match(/<svg role="img" aria-label="[^"]+"/g)).toHaveLength(5)
    expect(html).toMatch(/data-table="speed-pages".*data-row="\/pricing"/s)

    const ar = await (await get('/desk/speed?lang=ar', cookie)).text()
    expect(ar).toContain('dir="rtl"')
    expect(ar).toContain(
      new Intl.NumberFormat('ar', {
        style: 'unit',
        unit: 'second',
        unitDisplay: 'narrow',
        maximumFractionDigits: 2,
      }).format(4.6),
    )

    await env.DB.prepare('DELETE FROM dev_analytics').run()
    const empty = await (await get('/desk/speed', cookie)).text()
    expect(empty).toContain(en.desk_speed.empty.replace('{{period}}', '30 days'))

    expect((await get('/desk/speed')).status).toBe(404)
  })
})
