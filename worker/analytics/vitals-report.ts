import { METRICS, type MetricName } from '../../client/schemas/vitals'

/**
 * The desk's speed report (/desk/speed) and `npm run stats`: real visitors' Core Web Vitals
 * (api/vitals.ts) as the 75th percentile of each metric, as search engines read them, with the
 * share of good, needs-improvement and poor visits. Every figure is weighted by the row's
 * sample interval (how many visits an Analytics Engine row stands for).
 *
 * Analytics Engine answers with quantileWeighted; the development copy in D1 has no percentile
 * function, so its rows are read whole and weighed here, the same way (weightedQuantile).
 * No Worker API is used: scripts/stats.mjs runs this module in Node too.
 */

/** How the figures are asked for: Analytics Engine's SQL API or the D1 copy, as SQL text. */
export interface Asker {
  store: 'analytics-engine' | 'dev-mirror'
  query(sql: string): Promise<Record<string, unknown>[]>
}

export interface VitalFigure {
  /** the 75th percentile; null when no visit measured it */
  p75: number | null
  /** the visits it rests on (weighted) */
  visits: number
  good: number
  needsImprovement: number
  poor: number
}

export type Figures = Record<MetricName, VitalFigure>

export interface VitalsRow {
  /** a path, device class or country code ('' when unknown) */
  label: string
  /** the most visits any of its metrics rests on (INP only exists where a visitor interacted) */
  visits: number
  figures: Figures
}

export interface VitalsReport {
  days: number
  source: Asker['store']
  /** the SQL API failed or timed out: every figure is empty */
  unavailable: boolean
  site: Figures
  pages: VitalsRow[]
  devices: VitalsRow[]
  countries: VitalsRow[]
  /** one entry per UTC day, oldest first, today last */
  perDay: { day: string; figures: Figures }[]
}

const DATASET = 'growth_agency_events'
const DAY_MS = 86_400_000
/** Pages and countries each list keeps, the most visited first. */
export const TOP_ROWS = 10
const DIMENSIONS = ['site', 'page', 'device', 'country', 'day'] as const
type Dimension = (typeof DIMENSIONS)[number]

/** A measurement as stored, with the number of visits it stands for. */
export interface Sample {
  value: number
  weight: number
}

/**
 * The `q` quantile by nearest rank, each value counted `weight` times: the smallest value whose
 * running weight reaches q of the total (ClickHouse's quantileExactWeighted).
 */
export function weightedQuantile(samples: Sample[], q: number): number | null {
  if (!samples.length) return null
  const sorted = [...samples].sort((a, b) => a.value - b.value)
  const total = sorted.reduce((n, s) => n + s.weight, 0)
  let running = 0
  for (const s of sorted) {
    running += s.weight
    if (running >= q * total) return s.value
  }
  return sorted[sorted.length - 1].value
}

/** One group's figure, as both stores answer it. */
interface GroupRow {
  dim: Dimension
  label: string
  metric: MetricName
  p75: number | null
  n: number
  good: number
  poor: number
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** Analytics Engine: one query a dimension, aggregated there. */
function analyticsEngineSql(startMs: number) {
  const label: Record<Dimension, string> = {
    site: "''",
    page: 'blob1',
    device: 'blob6',
    country: 'blob3',
    // days since 1970
    day: 'intDiv(toUInt32(timestamp), 86400)',
  }
  return DIMENSIONS.map(
    (dim) =>
      [
        dim,
        `SELECT blob10 AS metric, ${label[dim]} AS label, ` +
          'quantileWeighted(0.75, double4, _sample_interval) AS p75, ' +
          'SUM(_sample_interval) AS n, ' +
          "sumIf(_sample_interval, blob11 = 'good') AS good, " +
          "sumIf(_sample_interval, blob11 = 'poor') AS poor " +
          `FROM ${DATASET} WHERE index1 = 'web_vital' AND blob7 != 'bot' ` +
          `AND toUInt32(timestamp) >= ${Math.floor(startMs / 1000)} ` +
          'GROUP BY metric, label FORMAT JSON',
      ] as const,
  )
}

async function fromAnalyticsEngine(ask: Asker, startMs: number): Promise<GroupRow[]> {
  const answers = await Promise.all(
    analyticsEngineSql(startMs).map(async ([dim, sql]) =>
      (await ask.query(sql)).map((r) => ({
        dim,
        label:
          dim === 'day' ? isoDay(Number(r.label) * DAY_MS) : String(r.label ?? '').slice(0, 200),
        metric: r.metric as MetricName,
        p75: r.p75 === null || r.p75 === undefined ? null : Number(r.p75),
        n: Number(r.n) || 0,
        good: Number(r.good) || 0,
        poor: Number(r.poor) || 0,
      })),
    ),
  )
  return answers.flat()
}

/** The D1 copy: its rows whole (development only, never sampled), grouped and weighed here. */
async function fromDevMirror(ask: Asker, startMs: number): Promise<GroupRow[]> {
  const rows = await ask.query(
    "SELECT blobs, doubles, created_at FROM dev_analytics WHERE index1 = 'web_vital' " +
      `AND created_at >= '${new Date(startMs).toISOString()}'`,
  )
  const groups = new Map<
    string,
    { dim: Dimension; label: string; metric: MetricName; samples: (Sample & { rating: string })[] }
  >()
  for (const r of rows) {
    const blobs = JSON.parse(String(r.blobs)) as string[]
    const doubles = JSON.parse(String(r.doubles)) as number[]
    if (blobs[6] === 'bot') continue
    const metric = blobs[9] as MetricName
    const labels: Record<Dimension, string> = {
      site: '',
      page: blobs[0],
      device: blobs[5],
      country: blobs[2],
      day: String(r.created_at).slice(0, 10),
    }
    for (const dim of DIMENSIONS) {
      const key = `${dim}\u0000${labels[dim]}\u0000${metric}`
      let group = groups.get(key)
      if (!group) groups.set(key, (group = { dim, label: labels[dim], metric, samples: [] }))
      group.samples.push({ value: doubles[3], weight: 1, rating: blobs[10] })
    }
  }
  return [...groups.values()].map(({ dim, label, metric, samples }) => {
    const weightOf = (rating: string) =>
      samples.filter((s) => s.rating === rating).reduce((n, s) => n + s.weight, 0)
    return {
      dim,
      label,
      metric,
      p75: weightedQuantile(samples, 0.75),
      n: samples.reduce((n, s) => n + s.weight, 0),
      good: weightOf('good'),
      poor: weightOf('poor'),
    }
  })
}

const empty = (): VitalFigure => ({ p75: null, visits: 0, good: 0, needsImprovement: 0, poor: 0 })
const emptyFigures = () => Object.fromEntries(METRICS.map((m) => [m, empty()])) as Figures

/** Each label's figures, from the group rows of one dimension. */
function byLabel(rows: GroupRow[], dim: Dimension) {
  const labels = new Map<string, Figures>()
  for (const r of rows) {
    if (r.dim !== dim || !METRICS.includes(r.metric)) continue
    let figures = labels.get(r.label)
    if (!figures) labels.set(r.label, (figures = emptyFigures()))
    figures[r.metric] = {
      p75: r.p75,
      visits: Math.round(r.n),
      good: Math.round(r.good),
      poor: Math.round(r.poor),
      needsImprovement: Math.max(0, Math.round(r.n - r.good - r.poor)),
    }
  }
  return labels
}

const visitsOf = (figures: Figures) => Math.max(...METRICS.map((m) => figures[m].visits))

function ranked(rows: GroupRow[], dim: Dimension, top = Infinity): VitalsRow[] {
  return [...byLabel(rows, dim)]
    .map(([label, figures]) => ({ label, visits: visitsOf(figures), figures }))
    .sort((a, b) => b.visits - a.visits || a.label.localeCompare(b.label))
    .slice(0, top)
}

export async function vitalsReport(ask: Asker, days = 30, now = Date.now()): Promise<VitalsReport> {
  // from the start of the first day (UTC), as the visit report
  const startMs = Math.floor(now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS
  let rows: GroupRow[] = []
  let unavailable = false
  try {
    rows =
      ask.store === 'analytics-engine'
        ? await fromAnalyticsEngine(ask, startMs)
        : await fromDevMirror(ask, startMs)
  } catch (err) {
    if (ask.store !== 'analytics-engine') throw err
    console.error('analytics: the SQL API failed', err)
    unavailable = true
  }
  const perDay = byLabel(rows, 'day')
  return {
    days,
    source: ask.store,
    unavailable,
    site: byLabel(rows, 'site').get('') ?? emptyFigures(),
    pages: ranked(rows, 'page', TOP_ROWS),
    devices: ranked(rows, 'device'),
    countries: ranked(rows, 'country', TOP_ROWS),
    perDay: Array.from({ length: days }, (_, i) => {
      const day = isoDay(startMs + i * DAY_MS)
      return { day, figures: perDay.get(day) ?? emptyFigures() }
    }),
  }
}
