import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import en from '../../../locales/en.json'
import { visitReport } from '../../../worker/analytics/report'
import { get, person } from './helpers'

// /desk/visits: the visit report as server-drawn charts, each with a hidden table of its figures.

const DAY = 86_400_000

const staffCookie = async () => (await person({ staff: true, secondFactor: true })).cookie

type Seed = {
  event?: string
  path?: string
  lang?: string
  country?: string
  referrer?: string
  bot?: boolean
  status?: number
  daysAgo: number
  times: number
}

/** dev_analytics rows exactly as worker/analytics/record.ts writes them in development. */
async function seed(rows: Seed[]) {
  await env.DB.prepare('DELETE FROM dev_analytics').run()
  const insert = env.DB.prepare(
    'INSERT INTO dev_analytics (index1, blobs, doubles, created_at) VALUES (?, ?, ?, ?)',
  )
  const statements = rows.flatMap((r) =>
    Array.from({ length: r.times }, () =>
      insert.bind(
        r.event ?? 'pageview',
        JSON.stringify([
          r.path ?? '/',
          r.lang ?? 'en',
          r.country ?? 'GB',
          'LHR',
          r.referrer ?? '',
          'desktop',
          r.bot ? 'bot' : 'human',
          'signed-out',
          '',
        ]),
        JSON.stringify([r.status ?? 200, 12, 1]),
        new Date(Date.now() - r.daysAgo * DAY).toISOString(),
      ),
    ),
  )
  await env.DB.batch(statements)
}

const SEEDS: Seed[] = [
  {
    path: '/services',
    lang: 'fr',
    country: 'FR',
    referrer: 'www.google.com',
    daysAgo: 0,
    times: 5,
  },
  {
    path: '/services',
    lang: 'fr',
    country: 'FR',
    referrer: 'www.google.com',
    daysAgo: 3,
    times: 4,
  },
  { path: '/', lang: 'en', country: 'GB', daysAgo: 1, times: 3 },
  { path: '/', lang: 'en', country: 'GB', daysAgo: 10, times: 2 },
  { path: '/pricing', lang: 'ar', country: 'AE', referrer: 'news.example', daysAgo: 29, times: 2 },
  // a missing page: a visit, but no top page
  { path: '(not found)', status: 404, lang: 'en', daysAgo: 2, times: 1 },
  // outside the 30 days, and crawlers: never counted
  { path: '/old', daysAgo: 40, times: 4 },
  { path: '/services', bot: true, daysAgo: 0, times: 6 },
  { event: 'booking_opened', path: '/services', daysAgo: 0, times: 3 },
  { event: 'booking_opened', path: '/services', bot: true, daysAgo: 0, times: 2 },
  { event: 'lead', path: '/', daysAgo: 1, times: 1 },
  { event: 'contact_message', path: '/contact', daysAgo: 2, times: 1 },
  { event: 'booking_made', path: '/book', daysAgo: 0, times: 1 },
  { event: 'whatsapp_click', path: '/', daysAgo: 0, times: 2 },
]

/** The rows of the hidden table captioned `caption`, as cell texts. */
function tableOf(html: string, caption: string) {
  const start = html.indexOf(`<caption>${caption}</caption>`)
  expect(start, caption).toBeGreaterThan(-1)
  const table = html.slice(start, html.indexOf('</table>', start))
  const body = table.slice(table.indexOf('<tbody>'))
  return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((cell) => cell[1]),
  )
}

describe('/desk/visits', { timeout: 60_000 }, () => {
  it('draws every chart from the dev mirror, with tables of the same figures', async () => {
    const cookie = await staffCookie()
    await seed(SEEDS)
    const res = await get('/desk/visits', cookie)
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const html = await res.text()
    expect(html).toContain('href="/desk/visits" aria-current="page"')
    // one image per chart: per day, funnel, pages, languages, countries, referrers
    expect(html.match(/<svg role="img" aria-label="[^"]+"/g)).toHaveLength(6)
    const perDay = html.slice(html.indexOf('data-chart="per-day"'))
    expect(perDay.slice(0, perDay.indexOf('</svg>')).match(/<rect /g)).toHaveLength(30)
    // the highest day (today: 5 on /services + the 404 is two days ago) is on the axis
    expect(perDay).toContain('>5</text>')

    const days = tableOf(html, en.desk_visits.per_day.title)
    expect(days).toHaveLength(30)
    expect(days.map((d) => Number(d[1])).reduce((a, b) => a + b)).toBe(17)
    expect(days[29][1]).toBe('5')

    expect(tableOf(html, en.desk_visits.pages.title)).toEqual([
      ['/services', '9'],
      ['/', '5'],
      ['/pricing', '2'],
    ])
    const language = new Intl.DisplayNames('en', { type: 'language' })
    expect(tableOf(html, en.desk_visits.languages.title)).toEqual([
      [language.of('fr'), '9'],
      [language.of('en'), '6'],
      [language.of('ar'), '2'],
    ])
    const country = new Intl.DisplayNames('en', { type: 'region' })
    expect(tableOf(html, en.desk_visits.countries.title)[0]).toEqual([country.of('FR'), '9'])
    expect(tableOf(html, en.desk_visits.referrers.title)).toEqual([
      ['www.google.com', '9'],
      [en.desk_visits.direct, '6'],
      ['news.example', '2'],
    ])
    expect(tableOf(html, en.desk_visits.funnel.title)).toEqual([
      [en.desk_visits.funnel.views, '17', '100%'],
      [en.desk_visits.funnel.forms_opened, '3', '17.6%'],
      [en.desk_visits.funnel.leads, '3', '17.6%'],
    ])

    // a week: seven bars; an unknown period is the month
    const week = await (await get('/desk/visits?days=7', cookie)).text()
    const weekChart = week.slice(week.indexOf('data-chart="per-day"'))
    expect(weekChart.slice(0, weekChart.indexOf('</svg>')).match(/<rect /g)).toHaveLength(7)
    const odd = await (await get('/desk/visits?days=abc', cookie)).text()
    expect(tableOf(odd, en.desk_visits.per_day.title)).toHaveLength(30)

    // Arabic: the page's language for the words and the numbers
    const ar = await (await get('/desk/visits?lang=ar', cookie)).text()
    expect(ar).toContain('dir="rtl"')
    expect(ar).toContain(new Intl.NumberFormat('ar').format(17))

    // nothing recorded: an empty state instead of charts
    await env.DB.prepare('DELETE FROM dev_analytics').run()
    const empty = await (await get('/desk/visits', cookie)).text()
    expect(empty).not.toContain('<svg role="img"')
    expect(empty).toContain(en.desk_visits.empty.replace('{{period}}', '30 days'))
  })

  it('is a not-found page for a visitor', async () => {
    const res = await get('/desk/visits')
    expect(res.status).toBe(404)
    expect(await res.text()).toContain(en.not_found.title)
  })
})

describe('the report from the Analytics Engine SQL API', () => {
  afterEach(() => vi.restoreAllMocks())

  const production = {
    ...env,
    CLOUDFLARE_ACCOUNT_ID: 'acc123',
    ANALYTICS_SQL_TOKEN: 'sql-token',
  }
  /** A JSON answer as the SQL API gives it (FORMAT JSON); sums of UInt64 come as strings. */
  const answer = (data: { label: string | number; n: string | number }[]) =>
    Response.json({
      meta: [
        { name: 'label', type: 'String' },
        { name: 'n', type: 'UInt64' },
      ],
      data,
      rows: data.length,
      rows_before_limit_at_least: data.length,
    })

  it('asks with the token, weighs rows by their sample interval and leaves crawlers out', async () => {
    const now = Date.UTC(2026, 2, 10, 15, 0)
    const today = Math.floor(now / DAY)
    const asked: string[] = []
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      expect(String(input)).toBe(
        'https://api.cloudflare.com/client/v4/accounts/acc123/analytics_engine/sql',
      )
      expect(init?.method).toBe('POST')
      expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer sql-token')
      expect(init?.signal).toBeInstanceOf(AbortSignal)
      const sql = String(init?.body)
      asked.push(sql)
      if (sql.includes('intDiv'))
        return answer([
          { label: today, n: '40' },
          { label: today - 2, n: 10 },
        ])
      if (sql.startsWith('SELECT blob1 ')) return answer([{ label: '/services', n: '30' }])
      if (sql.startsWith('SELECT blob2 '))
        return answer([
          { label: 'de', n: '35' },
          { label: 'en', n: '15' },
        ])
      if (sql.startsWith('SELECT blob3 ')) return answer([{ label: 'DE', n: '50' }])
      if (sql.startsWith('SELECT blob5 ')) return answer([{ label: '', n: '50' }])
      if (sql.startsWith('SELECT index1 '))
        return answer([
          { label: 'pageview', n: '50' },
          { label: 'booking_opened', n: '5' },
          { label: 'contact_message', n: '2' },
          { label: 'newsletter', n: '1' },
          { label: 'whatsapp_click', n: '9' },
        ])
      return new Response('unexpected query', { status: 400 })
    })
    const report = await visitReport(production, 7, now)
    expect(fetch).toHaveBeenCalledTimes(6)
    for (const sql of asked) {
      expect(sql).toContain('SUM(_sample_interval)')
      expect(sql).toContain("blob7 != 'bot'")
      expect(sql).toContain('FROM growth_agency_events')
      expect(sql).toContain(`toUInt32(timestamp) >= ${(today - 6) * 86_400}`)
      expect(sql).toMatch(/FORMAT JSON$/)
    }
    expect(report.source).toBe('analytics-engine')
    expect(report.unavailable).toBe(false)
    expect(report.perDay).toHaveLength(7)
    expect(report.perDay[0].day).toBe('2026-03-04')
    expect(report.perDay[6]).toEqual({ day: '2026-03-10', visits: 40 })
    expect(report.perDay[4]).toEqual({ day: '2026-03-08', visits: 10 })
    expect(report.pages).toEqual([{ label: '/services', count: 30 }])
    expect(report.languages[0]).toEqual({ label: 'de', count: 35 })
    expect(report.funnel).toEqual({ views: 50, formsOpened: 5, leads: 3 })
  })

  it('shows the report as unavailable when the API fails or is slow', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new DOMException('timed out', 'TimeoutError'))
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const report = await visitReport(production, 30)
    expect(report.unavailable).toBe(true)
    expect(report.perDay).toHaveLength(30)
    expect(report.funnel).toEqual({ views: 0, formsOpened: 0, leads: 0 })
  })
})
