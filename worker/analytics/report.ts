import type { Bindings } from '../bindings'
import type { Asker } from './vitals-report'

/**
 * The desk's visit report (/desk/visits): the figures `npm run stats` prints, read in the worker.
 * In production from Workers Analytics Engine's SQL API (CLOUDFLARE_ACCOUNT_ID and
 * ANALYTICS_SQL_TOKEN set), each row weighed by its _sample_interval; otherwise from the
 * `dev_analytics` D1 copy development keeps (record.ts). Crawlers never count (blob7 'bot').
 */

/** The Analytics Engine dataset of wrangler.toml's ANALYTICS binding. */
const DATASET = 'growth_agency_events'
/** How long the SQL API may take before the desk shows the report as unavailable. */
const SQL_TIMEOUT_MS = 3000
/** Entries each top list keeps. */
export const TOP = 8

/**
 * "Form opened": the only form the site reports opening is the booking dialog
 * (client/enhance/booking.ts); the contact, guide and newsletter forms sit on their pages.
 */
export const FORM_OPEN_EVENTS = ['booking_opened'] as const
/** "Lead": every form sent (client/lib/trackers.ts reportLead; the welcome popup's is `lead`). */
export const LEAD_EVENTS = [
  'lead',
  'guide_download',
  'newsletter',
  'contact_message',
  'booking_made',
] as const

export interface Count {
  /** a path, language code, country code or referring host; '' when none was known */
  label: string
  count: number
}

export interface VisitReport {
  days: number
  source: 'analytics-engine' | 'dev-mirror'
  /** the SQL API failed or timed out: every figure is empty */
  unavailable: boolean
  /** one entry per UTC day, oldest first, today last */
  perDay: { day: string; visits: number }[]
  pages: Count[]
  languages: Count[]
  countries: Count[]
  referrers: Count[]
  funnel: { views: number; formsOpened: number; leads: number }
}

type Store = 'analytics-engine' | 'dev-mirror'

/** Where each figure lives in a data point: Analytics Engine's column, D1's JSON path. */
const COLUMN = {
  path: { ae: 'blob1', d1: "json_extract(blobs, '$[0]')" },
  lang: { ae: 'blob2', d1: "json_extract(blobs, '$[1]')" },
  country: { ae: 'blob3', d1: "json_extract(blobs, '$[2]')" },
  referrer: { ae: 'blob5', d1: "json_extract(blobs, '$[4]')" },
  bot: { ae: 'blob7', d1: "json_extract(blobs, '$[6]')" },
  status: { ae: 'double1', d1: "json_extract(doubles, '$[0]')" },
} as const

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const DAY_MS = 86_400_000

/** The SQL of each query, in the store's dialect; every one answers rows of (label, n). */
function queries(store: Store, startMs: number) {
  const ae = store === 'analytics-engine'
  const col = (k: keyof typeof COLUMN) => (ae ? COLUMN[k].ae : COLUMN[k].d1)
  const from = ae ? DATASET : 'dev_analytics'
  const weight = ae ? 'SUM(_sample_interval)' : 'COUNT(*)'
  const since = ae
    ? `toUInt32(timestamp) >= ${Math.floor(startMs / 1000)}`
    : `created_at >= '${new Date(startMs).toISOString()}'`
  const human = `${since} AND ${col('bot')} != 'bot'`
  const views = `${human} AND index1 = 'pageview'`
  const tail = ae ? ' FORMAT JSON' : ''
  // Analytics Engine: the day as a number of days since 1970; D1: the ISO day itself
  const day = ae ? 'intDiv(toUInt32(timestamp), 86400)' : 'substr(created_at, 1, 10)'
  const top = (k: keyof typeof COLUMN, extra = '') =>
    `SELECT ${col(k)} AS label, ${weight} AS n FROM ${from} WHERE ${views}${extra} GROUP BY label ORDER BY n DESC, label ASC LIMIT ${TOP}${tail}`
  return {
    perDay: `SELECT ${day} AS label, ${weight} AS n FROM ${from} WHERE ${views} GROUP BY label${tail}`,
    // pages that answered; a missing page counts as a visit but is no top page
    pages: top('path', ` AND ${col('status')} = 200`),
    languages: top('lang'),
    countries: top('country'),
    referrers: top('referrer'),
    events: `SELECT index1 AS label, ${weight} AS n FROM ${from} WHERE ${human} GROUP BY label${tail}`,
  }
}

type Rows = { label: string | number | null; n: string | number }[]

async function askAnalyticsEngine(env: Bindings, sql: string, signal: AbortSignal): Promise<Rows> {
  const res = await fetch(
    `https://api.cloudflare.com/client/v4/accounts/${env.CLOUDFLARE_ACCOUNT_ID}/analytics_engine/sql`,
    {
      method: 'POST',
      headers: { Authorization: `Bearer ${env.ANALYTICS_SQL_TOKEN}` },
      body: sql,
      signal,
    },
  )
  if (!res.ok) throw new Error(`Analytics Engine answered ${res.status}: ${await res.text()}`)
  const body: { data?: Rows } = await res.json()
  return body.data ?? []
}

async function askD1(env: Bindings, sql: string): Promise<Rows> {
  return (await env.DB.prepare(sql).all<Rows[number]>()).results
}

/** The store the desk reads (the SQL API when configured), for vitals-report.ts. */
export function askerOf(env: Bindings): Asker {
  if (env.ANALYTICS_SQL_TOKEN && env.CLOUDFLARE_ACCOUNT_ID) {
    const signal = AbortSignal.timeout(SQL_TIMEOUT_MS)
    return { store: 'analytics-engine', query: (sql) => askAnalyticsEngine(env, sql, signal) }
  }
  return { store: 'dev-mirror', query: (sql) => askD1(env, sql) }
}

const counts = (rows: Rows): Count[] =>
  rows.map((r) => ({ label: String(r.label ?? ''), count: Math.round(Number(r.n) || 0) }))

/** The last `days` UTC days, today included, with the visits of each. */
function daysOf(days: number, startMs: number, rows: Rows, store: Store) {
  const visits = new Map<string, number>()
  for (const r of rows) {
    // Analytics Engine answers the day as a number (days since 1970), D1 as an ISO day
    const day =
      store === 'analytics-engine' ? isoDay(Number(r.label) * DAY_MS) : String(r.label ?? '')
    visits.set(day, (visits.get(day) ?? 0) + Math.round(Number(r.n) || 0))
  }
  return Array.from({ length: days }, (_, i) => {
    const day = isoDay(startMs + i * DAY_MS)
    return { day, visits: visits.get(day) ?? 0 }
  })
}

const sumOf = (events: Count[], names: readonly string[]) =>
  events.filter((e) => names.includes(e.label)).reduce((n, e) => n + e.count, 0)

export async function visitReport(
  env: Bindings,
  days = 30,
  now = Date.now(),
): Promise<VisitReport> {
  const store: Store =
    env.ANALYTICS_SQL_TOKEN && env.CLOUDFLARE_ACCOUNT_ID ? 'analytics-engine' : 'dev-mirror'
  // from the start of the first day (UTC), so the first bar holds a whole day too
  const startMs = Math.floor(now / DAY_MS) * DAY_MS - (days - 1) * DAY_MS
  const sql = queries(store, startMs)
  const names = Object.keys(sql) as (keyof typeof sql)[]
  let answers: Rows[]
  let unavailable = false
  if (store === 'analytics-engine') {
    const signal = AbortSignal.timeout(SQL_TIMEOUT_MS)
    try {
      answers = await Promise.all(names.map((k) => askAnalyticsEngine(env, sql[k], signal)))
    } catch (err) {
      console.error('analytics: the SQL API failed', err)
      answers = names.map(() => [])
      unavailable = true
    }
  } else answers = await Promise.all(names.map((k) => askD1(env, sql[k])))
  const rows = Object.fromEntries(names.map((k, i) => [k, answers[i]])) as Record<
    keyof typeof sql,
    Rows
  >
  const events = counts(rows.events)
  return {
    days,
    source: store,
    unavailable,
    perDay: daysOf(days, startMs, rows.perDay, store),
    pages: counts(rows.pages),
    languages: counts(rows.languages),
    countries: counts(rows.countries),
    referrers: counts(rows.referrers),
    funnel: {
      views: sumOf(events, ['pageview']),
      formsOpened: sumOf(events, FORM_OPEN_EVENTS),
      leads: sumOf(events, LEAD_EVENTS),
    },
  }
}
