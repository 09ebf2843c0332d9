import { env } from 'cloudflare:test'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import type { Asker } from '../../../worker/analytics/vitals-report'
import { experimentCounts } from '../../../worker/experiments/results'

// An experiment's visitors and conversions per variant and language, as the desk's results page
// and `npm run stats` read them: from the development copy of the data points in D1, and from
// Analytics Engine's SQL API.

const DAY = 86_400_000

type Seed = {
  event: 'exp_exposure' | 'exp_conversion'
  experiment: number
  variant: 'A' | 'B'
  lang: string
  bot?: boolean
  daysAgo?: number
  times?: number
}

/** dev_analytics rows exactly as worker/analytics/record.ts writes an experiment's point. */
async function seed(rows: Seed[]) {
  const insert = env.DB.prepare(
    'INSERT INTO dev_analytics (index1, blobs, doubles, created_at) VALUES (?, ?, ?, ?)',
  )
  const now = Date.now()
  await env.DB.batch(
    rows.flatMap((r) =>
      Array.from({ length: r.times ?? 1 }, () =>
        insert.bind(
          r.event,
          JSON.stringify([
            '/',
            r.lang,
            'GB',
            'LHR',
            '',
            'desktop',
            r.bot ? 'bot' : 'human',
            'signed-out',
            '',
            String(r.experiment),
            r.variant,
          ]),
          JSON.stringify([200, 0, 1]),
          new Date(now - (r.daysAgo ?? 1) * DAY).toISOString(),
        ),
      ),
    ),
  )
}

const d1: Asker = {
  store: 'dev-mirror',
  query: async (sql) => (await env.DB.prepare(sql).all<Record<string, unknown>>()).results,
}

// worker test files share a database: ids no other file uses
const id = 1_000_000_000 + Math.floor(Math.random() * 1_000_000_000)
const other = id + 1

describe('experimentCounts from the D1 copy', () => {
  afterAll(async () => {
    await env.DB.prepare("DELETE FROM dev_analytics WHERE json_extract(blobs, '$[9]') IN (?, ?)")
      .bind(String(id), String(other))
      .run()
  })

  it('counts each variant per language, leaving out crawlers, points before the start and other experiments', async () => {
    await seed([
      { event: 'exp_exposure', experiment: id, variant: 'A', lang: 'en', times: 3 },
      { event: 'exp_exposure', experiment: id, variant: 'A', lang: 'ar', times: 2 },
      { event: 'exp_exposure', experiment: id, variant: 'B', lang: 'en', times: 2 },
      { event: 'exp_exposure', experiment: id, variant: 'B', lang: 'ar', times: 4 },
      { event: 'exp_conversion', experiment: id, variant: 'A', lang: 'en' },
      { event: 'exp_conversion', experiment: id, variant: 'B', lang: 'en' },
      { event: 'exp_conversion', experiment: id, variant: 'B', lang: 'ar', times: 2 },
      // a crawler (the engine counts none; were one written, it would not count)
      { event: 'exp_exposure', experiment: id, variant: 'A', lang: 'en', bot: true, times: 5 },
      { event: 'exp_conversion', experiment: id, variant: 'A', lang: 'en', bot: true },
      // before the experiment's start
      { event: 'exp_exposure', experiment: id, variant: 'B', lang: 'en', daysAgo: 12 },
      // another experiment
      { event: 'exp_exposure', experiment: other, variant: 'B', lang: 'de', times: 5 },
      { event: 'exp_conversion', experiment: other, variant: 'B', lang: 'de' },
    ])
    const since = Date.now() - 10 * DAY

    expect(await experimentCounts(d1, id, since)).toEqual({
      unavailable: false,
      A: {
        visitors: 5,
        conversions: 1,
        byLang: { en: { visitors: 3, conversions: 1 }, ar: { visitors: 2, conversions: 0 } },
      },
      B: {
        visitors: 6,
        conversions: 3,
        byLang: { en: { visitors: 2, conversions: 1 }, ar: { visitors: 4, conversions: 2 } },
      },
    })
    expect(await experimentCounts(d1, other, since)).toEqual({
      unavailable: false,
      A: { visitors: 0, conversions: 0, byLang: {} },
      B: { visitors: 5, conversions: 1, byLang: { de: { visitors: 5, conversions: 1 } } },
    })
    // the point of 12 days ago counts from 13 days back
    const earlier = await experimentCounts(d1, id, Date.now() - 13 * DAY)
    expect(earlier.B.byLang.en).toEqual({ visitors: 3, conversions: 1 })
    // an experiment with no points yet
    expect(await experimentCounts(d1, other + 1, since)).toEqual({
      unavailable: false,
      A: { visitors: 0, conversions: 0, byLang: {} },
      B: { visitors: 0, conversions: 0, byLang: {} },
    })
  })
})

describe('experimentCounts from Analytics Engine', () => {
  afterEach(() => vi.restoreAllMocks())

  it('sums the sample intervals of human points of the experiment since its start', async () => {
    const asked: string[] = []
    const ae: Asker = {
      store: 'analytics-engine',
      query: async (sql) => {
        asked.push(sql)
        // as the SQL API answers FORMAT JSON: sums of UInt32 as strings
        return [
          { event: 'exp_exposure', variant: 'A', lang: 'en', n: '1200' },
          { event: 'exp_exposure', variant: 'A', lang: 'fr', n: '300' },
          { event: 'exp_exposure', variant: 'B', lang: 'en', n: '1180' },
          { event: 'exp_conversion', variant: 'A', lang: 'en', n: '40' },
          { event: 'exp_conversion', variant: 'B', lang: 'en', n: '52' },
          { event: 'exp_conversion', variant: 'B', lang: 'fr', n: '3' },
        ]
      },
    }
    const since = Date.UTC(2026, 11, 1, 9, 30)
    expect(await experimentCounts(ae, 42, since)).toEqual({
      unavailable: false,
      A: {
        visitors: 1500,
        conversions: 40,
        byLang: { en: { visitors: 1200, conversions: 40 }, fr: { visitors: 300, conversions: 0 } },
      },
      B: {
        visitors: 1180,
        conversions: 55,
        byLang: { en: { visitors: 1180, conversions: 52 }, fr: { visitors: 0, conversions: 3 } },
      },
    })
    expect(asked).toHaveLength(1)
    expect(asked[0]).toContain('SUM(_sample_interval)')
    expect(asked[0]).toContain("blob10 = '42'")
    expect(asked[0]).toContain("blob7 != 'bot'")
    expect(asked[0]).toContain(`toUInt32(timestamp) >= ${since / 1000}`)
  })

  it('is unavailable, every figure zero, when the SQL API fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const failing: Asker = {
      store: 'analytics-engine',
      query: () => Promise.reject(new Error('Analytics Engine answered 503')),
    }
    expect(await experimentCounts(failing, 42, 0)).toEqual({
      unavailable: true,
      A: { visitors: 0, conversions: 0, byLang: {} },
      B: { visitors: 0, conversions: 0, byLang: {} },
    })
  })
})
