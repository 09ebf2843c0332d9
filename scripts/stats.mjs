// `npm run stats`: what the agency needs at a glance — visits, top pages, languages, countries,
// referrers, conversions by event, and real visitors' speed (the desk's Speed page: Core Web
// Vitals at the 75th percentile) — over the last N days (default 30).
//   npm run stats                 from the local development copy in D1 (works on a fresh clone)
//   npm run stats -- --days 7
//   npm run stats -- --remote     from Workers Analytics Engine's SQL API; needs
//                                 CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN (Account Analytics: Read)
import { createJiti } from 'jiti'
import { queryD1 } from './lib/d1.mjs'

const args = process.argv.slice(2)
const days = args.includes('--days') ? Number(args[args.indexOf('--days') + 1]) : 30
if (!Number.isInteger(days) || days < 1 || days > 90)
  throw new Error('--days takes a whole number from 1 to 90')
const remote = args.includes('--remote')
const DATASET = 'growth_agency_events'

/** Runs SQL on the chosen store: the SQL API, or the local D1 copy. */
async function ask(sql) {
  if (!remote) return queryD1(sql)
  const account = process.env.CLOUDFLARE_ACCOUNT_ID
  const token = process.env.CLOUDFLARE_API_TOKEN
  if (!account || !token)
    throw new Error('--remote needs CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN')
  const res = await fetch(
    `https://api.cloudflare.com/client/v4/accounts/${account}/analytics_engine/sql`,
    { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: sql },
  )
  if (!res.ok) throw new Error(`Analytics Engine answered ${res.status}: ${await res.text()}`)
  return (await res.json()).data
}

/** Rows of [index1, blob1..blob9, double1..double3] from the chosen store. */
async function points() {
  if (remote) {
    // _sample_interval weighs each row back up where Analytics Engine sampled
    const sql = `SELECT index1, blob1, blob2, blob3, blob5, blob7, double1, _sample_interval AS weight FROM ${DATASET} WHERE timestamp > NOW() - INTERVAL '${days}' DAY FORMAT JSON`
    return (await ask(sql)).map((r) => ({
      event: r.index1,
      path: r.blob1,
      lang: r.blob2,
      country: r.blob3,
      referrer: r.blob5,
      bot: r.blob7 === 'bot',
      status: r.double1,
      weight: Number(r.weight) || 1,
    }))
  }
  const sql = `SELECT index1, blobs, doubles FROM dev_analytics WHERE created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${days} days')`
  return queryD1(sql).map((r) => {
    const b = JSON.parse(r.blobs)
    const d = JSON.parse(r.doubles)
    return {
      event: r.index1,
      path: b[0],
      lang: b[1],
      country: b[2],
      referrer: b[4],
      bot: b[6] === 'bot',
      status: d[0],
      weight: 1,
    }
  })
}

const rows = await points()
const views = rows.filter((r) => r.event === 'pageview' && !r.bot)
const tally = (list, key) => {
  const counts = new Map()
  for (const r of list)
    counts.set(key(r) || '(none)', (counts.get(key(r) || '(none)') ?? 0) + r.weight)
  return [...counts].sort((a, b) => b[1] - a[1])
}
const table = (title, entries, top = 10) => {
  console.log(`\n${title}`)
  if (!entries.length) return console.log('  (nothing yet)')
  const width = Math.max(...entries.slice(0, top).map(([k]) => String(k).length))
  for (const [k, n] of entries.slice(0, top))
    console.log(`  ${String(k).padEnd(width)}  ${Math.round(n)}`)
}

console.log(
  `Last ${days} days, ${remote ? 'Workers Analytics Engine' : 'local development copy (D1)'}`,
)
console.log(
  `\nVisits (page views by people): ${Math.round(views.reduce((n, r) => n + r.weight, 0))}`,
)
console.log(
  `Crawler page views (not counted above): ${Math.round(rows.filter((r) => r.event === 'pageview' && r.bot).reduce((n, r) => n + r.weight, 0))}`,
)
table(
  'Top pages',
  tally(
    views.filter((r) => r.status === 200),
    (r) => r.path,
  ),
)
table(
  'Languages',
  tally(views, (r) => r.lang),
)
table(
  'Countries',
  tally(views, (r) => r.country),
)
table(
  'Referrers',
  tally(views, (r) => r.referrer),
)
table(
  'Conversions by event',
  tally(
    rows.filter((r) => r.event !== 'pageview' && r.event !== 'web_vital'),
    (r) => r.event,
  ),
  20,
)

// Real visitors' speed: the desk's own report (worker/analytics/vitals-report.ts, run here as
// TypeScript by jiti), so both show the same figures.
const jiti = createJiti(import.meta.url)
const { vitalsReport } = await jiti.import('../worker/analytics/vitals-report.ts')
const { formatVital } = await jiti.import('../worker/i18n/format.ts')
const speed = await vitalsReport(
  { store: remote ? 'analytics-engine' : 'dev-mirror', query: ask },
  days,
)
const METRIC_NAMES = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB']
const p75 = (metric, figure) => (figure.p75 === null ? '-' : formatVital('en', metric, figure.p75))
const share = (n, figure) => (figure.visits ? `${Math.round((n / figure.visits) * 100)}%` : '-')
console.log('\nSpeed of real visits (75th percentile; good / needs improvement / poor)')
if (speed.unavailable) console.log('  (Analytics Engine did not answer)')
else if (METRIC_NAMES.every((m) => !speed.site[m].visits)) console.log('  (nothing yet)')
else {
  for (const m of METRIC_NAMES) {
    const f = speed.site[m]
    console.log(
      `  ${m.padEnd(5)} ${p75(m, f).padStart(8)}  ${share(f.good, f)} / ${share(f.needsImprovement, f)} / ${share(f.poor, f)}  (${f.visits} visits)`,
    )
  }
  for (const [title, rows] of [
    ['By page', speed.pages],
    ['By device', speed.devices],
    ['By country', speed.countries],
  ]) {
    console.log(`\n${title}: visits, then ${METRIC_NAMES.join(', ')}`)
    const width = Math.max(...rows.map((r) => (r.label || '(none)').length))
    for (const r of rows)
      console.log(
        `  ${(r.label || '(none)').padEnd(width)}  ${String(r.visits).padStart(5)}  ${METRIC_NAMES.map((m) => p75(m, r.figures[m]).padStart(8)).join(' ')}`,
      )
  }
}
