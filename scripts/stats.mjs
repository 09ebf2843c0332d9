// `npm run stats`: what the agency needs at a glance — visits, top pages, languages, countries,
// referrers, conversions by event, and real visitors' speed (the desk's Speed page: Core Web
// Vitals at the 75th percentile) — over the last N days (default 30); then each experiment that
// has started, over its own days (docs/experiments.md).
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

// Experiments (docs/experiments.md): every one that has started, with the desk's own figures
// (worker/experiments/results.ts and stats.ts). The experiments themselves are in D1, the local
// copy or (--remote) production's.
const { experimentCounts } = await jiti.import('../worker/experiments/results.ts')
const { analyse, MIN_CONVERSIONS, MIN_DAYS } = await jiti.import('../worker/experiments/stats.ts')
console.log(
  `\nExperiments (B against A; a verdict needs ${MIN_DAYS} days and ${MIN_CONVERSIONS} conversions in each variant)`,
)
let experiments = []
try {
  experiments = queryD1(
    "SELECT id, target, status, split_b, goal, winner, results, started_at, ended_at FROM experiments WHERE status != 'draft' ORDER BY id",
    { remote },
  )
} catch (err) {
  if (!/no such table/.test(`${err?.message}${err?.stderr}`)) throw err
  console.log('  (no experiments table: apply the migrations)')
}
const percent = (x, digits = 2) => `${(x * 100).toFixed(digits)}%`
// (a chance shown as 100.0% would claim a certainty no count gives)
const chance = (x) => (x > 0.999 ? 'over 99.9%' : x < 0.001 ? 'under 0.1%' : percent(x, 1))
const rateOf = (arm, interval) =>
  `${arm.conversions}/${arm.visitors}` +
  (interval
    ? ` = ${percent(interval.rate)} (95%: ${percent(interval.low)} to ${percent(interval.high)})`
    : '')
if (!experiments.length) console.log('  (no experiments yet)')
for (const e of experiments) {
  const startedAt = Date.parse(e.started_at)
  const endedAt = e.ended_at ? Date.parse(e.ended_at) : Date.now()
  const state = e.status === 'archived' ? `archived, winner ${e.winner ?? 'none'}` : e.status
  console.log(`\n  #${e.id} ${e.target}: ${state}; goal ${e.goal}; ${e.split_b}% of visitors to B`)
  if (!Number.isFinite(startedAt)) {
    console.log('    (never started)')
    continue
  }
  const counts = await experimentCounts(
    { store: remote ? 'analytics-engine' : 'dev-mirror', query: ask },
    e.id,
    startedAt,
  )
  if (counts.unavailable) {
    console.log('    (the counts could not be read)')
    continue
  }
  const result = analyse(counts, e.split_b, startedAt, endedAt)
  console.log(
    e.ended_at
      ? `    ran ${result.days.toFixed(1)} days, ${e.started_at} to ${e.ended_at}`
      : `    ${result.days.toFixed(1)} days since ${e.started_at}`,
  )
  if (e.status === 'archived' && !counts.A.visitors && !counts.B.visitors && e.results) {
    // the data points are older than the store keeps: the figures stored when it was archived
    console.log(`    (no data points left; stored results: ${e.results})`)
    continue
  }
  for (const v of ['A', 'B']) console.log(`    ${v}  ${rateOf(result[v], result[v].interval)}`)
  const langs = [...new Set([...Object.keys(counts.A.byLang), ...Object.keys(counts.B.byLang)])]
  for (const lang of langs.sort()) {
    const none = { visitors: 0, conversions: 0 }
    const arm = (v) => counts[v].byLang[lang] ?? none
    console.log(
      `      ${(lang || '(none)').padEnd(6)} A ${arm('A').conversions}/${arm('A').visitors}   B ${arm('B').conversions}/${arm('B').visitors}`,
    )
  }
  const loss = result.expectedLoss
  console.log(`    B's chance to beat A: ${chance(result.chanceToBeat)}`)
  const points = (x) => (x * 100).toFixed(3)
  console.log(
    `    Expected loss, in points of conversion rate: choosing B ${points(loss.ofB)}, choosing A ${points(loss.ofA)}`,
  )
  console.log(
    `    Sample ratio: chi-squared ${result.srm.chi2.toFixed(2)}, p = ${result.srm.p.toPrecision(2)}` +
      (result.srm.mismatch ? ' (MISMATCH: the split is broken)' : ' (as the split expects)'),
  )
  const v = result.verdict
  if (v.kind === 'srm')
    console.log('    Verdict: none: the visitors do not match the split (check the assignment)')
  else if (v.kind === 'too_early') {
    const missing = [
      v.daysLeft ? `${v.daysLeft} more day${v.daysLeft === 1 ? '' : 's'}` : '',
      v.conversionsMissing.A ? `${v.conversionsMissing.A} more conversions in A` : '',
      v.conversionsMissing.B ? `${v.conversionsMissing.B} more conversions in B` : '',
    ].filter(Boolean)
    console.log(`    Verdict: too early: needs ${missing.join(', ')}`)
  } else
    console.log(
      `    Verdict: ${v.leader} leads, with a ${chance(v.chanceToBeat)} chance to beat ${v.leader === 'A' ? 'B' : 'A'}`,
    )
}
