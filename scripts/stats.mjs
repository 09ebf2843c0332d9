// `npm run stats`: what the agency needs at a glance — visits, top pages, languages, countries,
// referrers and conversions by event — over the last N days (default 30).
//   npm run stats                 from the local development copy in D1 (works on a fresh clone)
//   npm run stats -- --days 7
//   npm run stats -- --remote     from Workers Analytics Engine's SQL API; needs
//                                 CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN (Account Analytics: Read)
import { queryD1 } from './lib/d1.mjs'

const args = process.argv.slice(2)
const days = args.includes('--days') ? Number(args[args.indexOf('--days') + 1]) : 30
if (!Number.isInteger(days) || days < 1 || days > 90)
  throw new Error('--days takes a whole number from 1 to 90')
const remote = args.includes('--remote')
const DATASET = 'growth_agency_events'

/** Rows of [index1, blob1..blob9, double1..double3] from the chosen store. */
async function points() {
  if (remote) {
    const account = process.env.CLOUDFLARE_ACCOUNT_ID
    const token = process.env.CLOUDFLARE_API_TOKEN
    if (!account || !token)
      throw new Error('--remote needs CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN')
    // _sample_interval weighs each row back up where Analytics Engine sampled
    const sql = `SELECT index1, blob1, blob2, blob3, blob5, blob7, double1, _sample_interval AS weight FROM ${DATASET} WHERE timestamp > NOW() - INTERVAL '${days}' DAY FORMAT JSON`
    const res = await fetch(
      `https://api.cloudflare.com/client/v4/accounts/${account}/analytics_engine/sql`,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: sql,
      },
    )
    if (!res.ok) throw new Error(`Analytics Engine answered ${res.status}: ${await res.text()}`)
    return (await res.json()).data.map((r) => ({
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
    rows.filter((r) => r.event !== 'pageview'),
    (r) => r.event,
  ),
  20,
)
