// `npm run bench`: the performance budgets of DEVELOPERS.md, measured on the production build.
//  0. The Worker's upload: its modules' bytes, raw and gzipped as `wrangler deploy` counts them
//     (the modules concatenated, then gzipped), first; over budget the bench exits with 1.
//  1. Bytes the home page makes a visitor download (JS, CSS, HTML), gzip and brotli, as loaded
//     by Chromium from `wrangler dev`.
//  2. CPU time of the server render of every page: the built worker's fetch handler run in
//     Node (same V8 as workerd) with V8's helper threads off (--single-threaded), so that
//     process.cpuUsage() counts the one thread a Worker's CPU limit counts, GC included.
//  3. The same pages in workerd itself (Miniflare), as CPU of the Worker's isolate per request
//     from V8's sampling profiler (lib/isolate-cpu.mjs), on a miss and on a hit of the edge
//     cache; both measures on the same home-page misses; again as CPU of workerd's main thread
//     less a baseline (lib/thread-cpu.mjs), which also sees the native work the profiler does
//     not and, unlike it, counts each request exactly: the p95 budgets are read from it; then
//     requests a second for the home page (a hit) against /robots.txt with 50 connections, on
//     wrangler dev as `npm start` runs it.
//  4. The desk (/desk, staff with a second factor): its inbox over 100,000 seeded leads, server
//     CPU in Node as in 2, CPU of the isolate in workerd as in 3 (the budget's figure; D1's
//     SQLite runs elsewhere), and the compressed JavaScript its page loads in Chromium.
//  5. The desk's history (/desk/history) over 100,000 seeded audit rows against 10: the wall
//     time of a first page and of a page far in by its cursor, with and without filters, in
//     workerd with D1 (its SQLite included, unlike 4).
// 2 and 3 run with two experiments (issue 60) running on the site's D1: the home hero's title and
// the Amazon service page's headline. Their pages are measured for an anonymous visitor (A:
// everyone's copy) and again as a visitor counted by both and in B of both: "… (B)", a render
// of B's copy on a miss, a later page of theirs on a hit (the isolate's memory answers it); and
// with the hits "… (B first)", their first page, which the app answers from the copy, counting
// the exposure and setting its cookie.
// Flags: --no-build (use dist/ as it is), --runs N (render samples per page and language,
// default 40; 150 for the thread's count, which judges the p95 budgets),
// --render-only (2 alone, run it with node --single-threaded), --workerd-only (3 without the
// throughput), --throughput-only,
// --desk-only (4 alone), --history-only (5 alone), --size-only (0 alone),
// --no-experiments (2 and 3 with none running, as before issue 60: the figures to compare).
import { register } from 'node:module'
import { execFileSync } from 'node:child_process'
import { generateKeyPairSync } from 'node:crypto'
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort, migrate, startServer } from './lib/server.mjs'
import {
  DUMMY_SECRET,
  DUMMY_SITE_KEY,
  DUMMY_TOKEN,
  startTurnstileStandin,
} from './lib/turnstile-standin.mjs'
import { isolateCpu, withInspector } from './lib/isolate-cpu.mjs'
import { BASELINE_WORKER, threadNs, workerdPid } from './lib/thread-cpu.mjs'
import { BUILD, builtModules, miniflareModules } from './lib/built-worker.mjs'
import { readdirSync, readFileSync } from 'node:fs'
import { brotliCompressSync, gzipSync, constants } from 'node:zlib'
import { chromium } from 'playwright-core'
import { createJiti } from 'jiti'

const BUDGET = {
  js: 90 * 1024,
  css: 20 * 1024,
  cpuMs: 10,
  // the edge cache (issue 21): p95 of the worst page on each path, and hit throughput
  workerd: { miss: 5, hit: 1 },
  throughputRatio: 0.7,
  // the Worker's upload, gzipped (issue 49; Cloudflare refuses 3 MB on the free plan)
  workerGzip: 1_000_000,
}
const args = process.argv.slice(2)
const runs = Number(args[args.indexOf('--runs') + 1]) || 40
// The p95 budgets are judged on the thread's count (benchThread), from more samples: a p95 of
// 80 sits 4 samples from the top, so one burst of this machine's noise decides it, and the
// worst of 14 such estimates is biased upwards. From 300 a page it is 15 from the top.
const threadRuns = args.includes('--runs') ? runs : 150

const PATHS = [
  '/',
  '/about',
  '/services',
  '/services/amazon',
  '/services/ecommerce',
  '/portfolio',
  '/pricing',
  '/faq',
  '/contact',
  '/auth',
  '/blog',
  '/blog/tiktok-shop-guide',
  '/privacy-policy',
  '/terms-of-service',
  '/refund-policy',
  '/no-such-page',
]
const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length
const cell = (n, w = 7) => n.toFixed(2).padStart(w)
const row = (path, xs) =>
  `  ${path.padEnd(26)}${cell(mean(xs))}${cell(pct(xs, 0.5))}${cell(pct(xs, 0.95))}${cell(Math.max(...xs))}`
const header = `  ${'page'.padEnd(26)}${'mean'.padStart(7)}${'median'.padStart(7)}${'p95'.padStart(7)}${'max'.padStart(7)}`

/** Pages outside the edge cache (routes.ts): they render on every path. */
const UNCACHED = ['/auth', '/no-such-page']
/**
 * The rows the budgets judge: the cached pages, less a visitor's first page in B, which no
 * memory answers (a first exposure is the app's to count; see pagesOf), shown apart.
 */
const judged = (path, visitor) => !UNCACHED.includes(path) && visitor !== 'B first'

/**
 * Samples `runs` renders of every page in en and in ar (after ten of warm-up) with `measure`
 * (path, language, visitor: see pagesOf); the worst mean and p95 of the pages `counted` picks.
 * `hits`: the pages of a run of hits (pagesOf).
 */
async function samplePages(measure, counted = () => true, hits = false) {
  const results = []
  for (const [label, path, visitor] of pagesOf(hits)) {
    const samples = []
    for (const lang of ['en', 'ar']) {
      for (let i = 0; i < 10; i++) await measure(path, lang, visitor)
      for (let i = 0; i < runs; i++) samples.push(await measure(path, lang, visitor))
    }
    console.log(row(label, samples))
    if (counted(path, visitor)) results.push({ mean: mean(samples), p95: pct(samples, 0.95) })
  }
  return {
    mean: Math.max(...results.map((r) => r.mean)),
    p95: Math.max(...results.map((r) => r.p95)),
  }
}

function verdict(worst) {
  const ok = worst < BUDGET.cpuMs ? 'OK' : 'OVER'
  return `worst page mean ${worst.toFixed(2)} ms of ${BUDGET.cpuMs} ms ${ok}`
}

const vars = Object.fromEntries(
  [
    ...readFileSync(new URL('../wrangler.toml', import.meta.url), 'utf8').matchAll(
      /^([A-Z_]+) = "(.*)"$/gm,
    ),
  ].map((m) => [m[1], m[2]]),
)
// Production: no development mirror of the analytics into D1 after each page.
const env = { ...vars, ENVIRONMENT: 'production' }
/** Analytics Engine as bound in production (wrangler.toml): every page view writes a point. */
const ANALYTICS = { ANALYTICS: { dataset: 'growth_agency_events' } }

// ---- the site's D1: the content the pages show (migrations 0013, 0014), as `npm start` has it
const SITE_STATE = '.wrangler/bench-site-state'
const siteD1 = { d1Databases: { DB: 'DB' }, resourcePersistencePath: `${SITE_STATE}/v3` }
let siteMigrated
const siteDatabase = () => (siteMigrated ??= migrate(SITE_STATE).then(runExperiments))

// ---- the experiments running while 2 and 3 measure (issue 60) --------------------------------
const WITHOUT_EXPERIMENTS = args.includes('--no-experiments')
const EXPERIMENTS = [
  {
    target: 'home.hero_title',
    path: '/',
    seed: 'bench-hero-title',
    texts: {
      en: 'Grow past your best month, with a team on call',
      ar: 'تجاوز أفضل شهر لك مع فريق معك دائمًا',
    },
  },
  {
    target: 'service.amazon.headline',
    path: '/services/amazon',
    seed: 'bench-amazon-headline',
    texts: {
      en: 'More Amazon sales from the listings you already have',
      ar: 'مبيعات أكثر على أمازون من قوائمك الحالية',
    },
  },
]
/**
 * Every page in turn, an experiment's again for the visitor in B after it: [label, path,
 * visitor]. The visitor: 'A', anonymous; 'B', the visitor in B (a render of B's copy on a
 * miss, a later page of theirs on a hit); with the hits, 'B first', their first page (the app
 * answers it from B's copy, counting the exposure and setting its cookie).
 */
const pagesOf = (hits) =>
  PATHS.flatMap((p) =>
    WITHOUT_EXPERIMENTS || !EXPERIMENTS.some((e) => e.path === p)
      ? [[p, p, 'A']]
      : [[p, p, 'A'], [`${p} (B)`, p, 'B'], ...(hits ? [[`${p} (B first)`, p, 'B first']] : [])],
  )
/**
 * The cookies of a visitor who accepted analytics and is in B of both experiments: `first`,
 * before any exposure (the app answers, counts the exposure, sets its cookie; a refresh counts
 * nothing), and `later`, with the cookies that say both were counted (`exp-<id>`: the isolate's
 * memory answers). Set once the experiments run (runExperiments).
 */
const visitorInB = { first: '', later: '' }
/**
 * Their browser's user agent: the bench's clients send none (Node) or their own (`undici`, a
 * bot to isbot, which the experiments show A and never count).
 */
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
/** The headers of a request of `visitor` (see pagesOf) in a run of hits or misses. */
const visitorHeaders = (visitor, hits) =>
  visitor === 'A'
    ? {}
    : {
        Cookie: visitor === 'B' && hits ? visitorInB.later : visitorInB.first,
        'User-Agent': BROWSER,
      }

/**
 * The site's D1 with the two experiments running afresh (the bench's earlier ones deleted, any
 * other on their texts archived), or none with --no-experiments; the `experiments` generation
 * raised, as the desk's start does, so a running isolate reads them again.
 */
async function runExperiments() {
  const { Miniflare } = await import('./lib/miniflare-v4.mjs')
  const mf = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response() }',
    ...siteD1,
  })
  try {
    const db = await mf.getD1Database('DB')
    const targets = EXPERIMENTS.map((e) => `'${e.target}'`).join(', ')
    await db.batch([
      db.prepare(
        `DELETE FROM experiments WHERE seed IN (${EXPERIMENTS.map((e) => `'${e.seed}'`).join(', ')})`,
      ),
      db.prepare(
        `UPDATE experiments SET status = 'archived' WHERE status != 'archived' AND target IN (${targets})`,
      ),
      ...(WITHOUT_EXPERIMENTS ? [] : EXPERIMENTS).map((e) =>
        db
          .prepare(
            `INSERT INTO experiments (target, seed, split_b, goal, texts, status, created_by, started_at)
             VALUES (?, ?, 50, 'booking', ?, 'running', 'bench', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
          )
          .bind(e.target, e.seed, JSON.stringify(e.texts)),
      ),
      db.prepare(
        `INSERT INTO content_generations (tag, generation, changed_at)
         VALUES ('experiments', 1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
         ON CONFLICT (tag) DO UPDATE SET generation = generation + 1, changed_at = excluded.changed_at`,
      ),
    ])
    if (WITHOUT_EXPERIMENTS) return
    const { results } = await db
      .prepare(
        `SELECT id, seed FROM experiments WHERE status = 'running' AND target IN (${targets})`,
      )
      .all()
    const ids = EXPERIMENTS.map((e) => results.find((r) => r.seed === e.seed).id)
    const id = await idInB(EXPERIMENTS.map((e) => e.seed))
    const now = Math.floor(Date.now() / 1000)
    visitorInB.first = `tracking-consent=granted; visitor-id=${id}`
    visitorInB.later = [visitorInB.first, ...ids.map((n) => `exp-${n}=${now}.en`)].join('; ')
    console.log(
      `\nExperiments running: ${EXPERIMENTS.map((e, i) => `${e.target} (${ids[i]})`).join(', ')}; the visitor in B of both: ${id}`,
    )
  } finally {
    await mf.dispose()
  }
}

/** The first id (as the site makes them: 22 of [A-Za-z0-9_-]) that every seed puts in B at 50%. */
async function idInB(seeds) {
  const { variantOf } = await createJiti(import.meta.url).import('../worker/experiments/assign.ts')
  for (let n = 0; ; n++) {
    const id = `bench-visitor-${String(n).padStart(8, '0')}`
    if (seeds.every((seed) => variantOf(seed, 50, id) === 'B')) return id
  }
}

const checked = new Map()
/**
 * Throws unless the page shows the experiment's text exactly when the visitor is in B: the
 * figures are of the variant they are labelled with. The first two answers of each page,
 * language and visitor in each `run` (the first may render, the second is a copy on a hit).
 */
function checkVariant(run, path, lang, visitor, body) {
  const inB = visitor !== 'A'
  const experiment = !WITHOUT_EXPERIMENTS && EXPERIMENTS.find((e) => e.path === path)
  const key = `${run} ${path} ${lang} ${visitor}`
  const seen = checked.get(key) ?? 0
  if (!experiment || seen >= 2) return
  checked.set(key, seen + 1)
  const shows = new TextDecoder().decode(body).includes(experiment.texts[lang])
  if (shows !== inB)
    throw new Error(
      `${run}: ${path} in ${lang} showed ${shows ? 'B' : 'A'} to the visitor in ${inB ? 'B' : 'A'}`,
    )
}

/** CPU of the built worker's fetch handler in this (single-threaded) Node process. */
async function benchRender() {
  await siteDatabase()
  const { Miniflare } = await import('./lib/miniflare-v4.mjs')
  const mf = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response() }',
    ...siteD1,
  })
  const d1 = await mf.getD1Database('DB')
  // Miniflare's D1 client in Node: its (synchronous proxy's) CPU counts here, which a Worker's
  // binding does not spend; the figures below are an upper bound for the content pages
  const DB = {
    prepare: (sql) => d1.prepare(sql),
    batch: (list) => d1.batch(list),
    withSession: () => ({ ...DB, getBookmark: () => null }),
  }
  // the worker's cloudflare:* imports (mail providers) have stand-ins in Node
  register('./lib/workers-modules.mjs', import.meta.url)
  const { default: worker } = await import(
    new URL('../dist/growth_agency/index.js', import.meta.url)
  )
  const pending = []
  const ctx = { waitUntil: (p) => pending.push(p), passThroughOnException() {} }
  // one env for every request, as an isolate has: what the worker keeps per env stays kept
  const nodeEnv = { ...env, DB }
  // (no Cache API in the first run: the visitor in B's first page renders and counts)
  const render = async (path, lang, visitor, hits) => {
    const start = process.cpuUsage()
    const res = await worker.fetch(
      new Request(`https://bench.example${path}?lang=${lang}`, {
        headers: visitorHeaders(visitor, hits),
      }),
      nodeEnv,
      ctx,
    )
    const body = await res.arrayBuffer()
    const d = process.cpuUsage(start)
    checkVariant(hits ? 'node hit' : 'node', path, lang, visitor, body)
    return (d.user + d.system) / 1000
  }
  console.log(
    `\nServer render CPU per page in Node, ms (${runs} renders in en and ${runs} in ar, after warm-up):`,
  )
  console.log(header)
  const worst = await samplePages((path, lang, visitor) => render(path, lang, visitor, false))
  console.log(`  budget: ${verdict(worst.mean)} (p95 and max include full GCs on the one thread)`)

  // Hits: Node has no Cache API. With a cache in a Map, the first request of each page renders
  // and stores it, and every later one is a hit from the isolate's memory: the same code as in
  // workerd, its CPU counted on the one thread.
  const stored = new Map()
  globalThis.caches = {
    default: {
      match: async (key) => stored.get(String(key))?.clone(),
      put: async (key, res) =>
        void stored.set(String(key), new Response(await res.arrayBuffer(), res)),
    },
  }
  // the renders above leave their garbage: collected first, not charged to the first hits
  globalThis.gc?.()
  const hit = async (path, lang, visitor) => {
    const ms = await render(path, lang, visitor, true)
    await Promise.all(pending.splice(0))
    return ms
  }
  console.log(
    `\nServer CPU per page on an edge-cache hit in Node, ms (${runs} in en and ${runs} in ar, after warm-up):`,
  )
  console.log(header)
  const worstHit = await samplePages(hit, judged, true)
  console.log(
    `  budget: worst page p95 ${worstHit.p95.toFixed(2)} ms of ${BUDGET.workerd.hit} ms ${worstHit.p95 < BUDGET.workerd.hit ? 'OK' : 'OVER'} (the cached pages; /auth and not-found render; a first page in B aside)`,
  )
  await mf.dispose()
}

/**
 * `runs` requests of every path in en and in ar (after ten of warm-up) through `measure` of an
 * isolateCpu (lib/isolate-cpu.mjs); prints a row per path once the profile is collected, and
 * returns the worst mean and p95 of the paths `counted` picks. `paths`: [label, path, and
 * what else `request` is given (the visitor)].
 */
async function sampleIsolate(cpu, paths, request, counted = () => true) {
  const windows = []
  for (const [label, path, visitor] of paths) {
    const mine = []
    for (const lang of ['en', 'ar']) {
      for (let i = 0; i < 10; i++) await cpu.measure(() => request(path, lang, visitor))
      for (let i = 0; i < runs; i++)
        mine.push((await cpu.measure(() => request(path, lang, visitor))).window)
    }
    windows.push([label, path, visitor, mine])
  }
  const interval = await cpu.collect()
  const results = []
  for (const [label, path, visitor, mine] of windows) {
    const samples = mine.map((w) => w.ms)
    console.log(row(label, samples))
    if (counted(path, visitor)) results.push({ mean: mean(samples), p95: pct(samples, 0.95) })
  }
  console.log(`  (V8's profiler sampled the isolate every ${interval} µs)`)
  return {
    mean: Math.max(...results.map((r) => r.mean)),
    p95: Math.max(...results.map((r) => r.p95)),
  }
}

/**
 * The built Worker as Miniflare runs it for the bench, with production's settings; the Cache
 * API off for the miss run (`path`: 'miss' or 'hit'; none for the desk).
 */
function builtWorker(path) {
  const built = JSON.parse(
    readFileSync(new URL('../dist/growth_agency/wrangler.json', import.meta.url), 'utf8'),
  )
  return {
    ...miniflareModules(),
    compatibilityDate: built.compatibility_date,
    compatibilityFlags: built.compatibility_flags ?? [],
    bindings: env,
    ...siteD1,
    analyticsEngineDatasets: ANALYTICS,
    cache: path !== 'miss',
  }
}

/**
 * The same pages in workerd, Cloudflare's runtime, through Miniflare, on both paths of the
 * edge cache (worker/render/edge-cache.ts), as CPU of the Worker's isolate per request
 * (lib/isolate-cpu.mjs): a miss (every request renders, keeps a copy and rewrites the nonce)
 * and a hit (answered from the isolate's memory before the app, worker/render/edge-memory.ts).
 * The language comes as visitors' browsers send it, in Accept-Language: a `?lang=` link is
 * answered by the app, since it sets the language cookie.
 */
async function benchWorkerd() {
  await siteDatabase()
  const { Miniflare } = await import('./lib/miniflare-v4.mjs')
  const results = {}
  for (const path of ['miss', 'hit']) {
    const options = await withInspector(builtWorker(path))
    const mf = new Miniflare(options)
    const cpu = await isolateCpu(mf, options.inspectorPort)
    const seen = {}
    // A miss: the isolate keeps its copies in memory whatever the Cache API does, so each
    // request of the miss run is the edge's own refresh of a page (x-render-refresh), which
    // renders, keeps a copy and rewrites the nonce as a miss does, less the lookup before and
    // the page view. A warm isolate's miss: the page's tail of this language is rendered
    // already (worker/layout/page-tail.tsx); the first page of a language in a new isolate
    // renders it too (the Node figures above, first request of each page aside).
    // the visitor in B (pagesOf): the refresh of a miss renders B's copy for their cookies
    // (and counts nothing: nobody's visit)
    const request = async (url, lang, visitor) => {
      const res = await mf.dispatchFetch(`http://bench.example${url}`, {
        redirect: 'manual',
        headers: {
          'Accept-Language': lang,
          ...(path === 'miss' && { 'x-render-refresh': '1' }),
          ...visitorHeaders(visitor, path === 'hit'),
        },
      })
      checkVariant(`workerd ${path}`, url, lang, visitor, await res.arrayBuffer())
      const render = res.headers.get('x-render')
      if (render) seen[render] = (seen[render] ?? 0) + 1
    }
    console.log(
      `\nServer CPU ${path === 'miss' ? 'of a render on a cache miss' : 'of an answer on a cache hit'} in workerd, ms of the Worker's isolate (${runs} in en and ${runs} in ar):`,
    )
    console.log(header)
    results[path] = await sampleIsolate(cpu, pagesOf(path === 'hit'), request, judged)
    console.log(
      `  responses by path: ${Object.entries(seen)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    )
    // a sampled figure: right on average, not request by request (bothMeasures below)
    console.log(
      `  worst page (the cached pages): mean ${results[path].mean.toFixed(2)} ms, p95 ${results[path].p95.toFixed(2)} ms (sampled: the budget's p95 is the thread's count below)`,
    )
    await mf.dispose()
  }
  return results
}

/**
 * The two measures on the same requests: home-page misses timed by V8's profiler (the isolate)
 * and by the kernel's count for workerd's thread (everything on it, HTTP and Miniflare's cache
 * worker included, so never less than the isolate's own CPU). The profiler samples every
 * 150–250 µs here (not the 50 asked for), some twenty samples a home miss, and its sampling
 * thread sometimes waits for a core (gaps of up to 20 ms between samples); a gap's time is lost
 * to the request it falls in, and time the thread was not running can count. So its mean, and
 * where the time goes, are its figures; a request's own CPU, and with it the budget's p95, is
 * the kernel's count, which does not sample.
 */
async function bothMeasures() {
  await siteDatabase()
  const { Miniflare } = await import('./lib/miniflare-v4.mjs')
  const { request } = await import('undici')
  const port = await freePort()
  const known = new Set(readdirSync('/proc'))
  const options = await withInspector({
    // (a shared option: where the workers' D1 lives)
    resourcePersistencePath: siteD1.resourcePersistencePath,
    workers: [
      { name: 'site', ...builtWorker('miss'), unsafeDirectSockets: [{ host: '127.0.0.1', port }] },
    ],
  })
  const mf = new Miniflare(options)
  await mf.ready
  const pid = workerdPid(known)
  const miss = async (lang) => {
    const res = await request(`http://127.0.0.1:${port}/`, {
      headers: { 'Accept-Language': lang, 'x-render-refresh': '1' },
    })
    await res.body.arrayBuffer()
  }
  for (let i = 0; i < 10; i++) for (const lang of ['en', 'ar']) await miss(lang)
  const cpu = await isolateCpu(mf, options.inspectorPort)
  const thread = []
  const windows = []
  for (let i = 0; i < runs; i++)
    for (const lang of ['en', 'ar']) {
      // (the thread's count is current only while it sleeps: read it outside the idle margins)
      const before = threadNs(pid)
      windows.push((await cpu.measure(() => miss(lang))).window)
      thread.push((threadNs(pid) - before) / 1e6)
    }
  await cpu.collect()
  await mf.dispose()
  const profiled = windows.map((w) => w.ms)
  const spread = (xs) =>
    `p5 ${cell(pct(xs, 0.05), 5)}, median ${cell(pct(xs, 0.5), 5)}, p95 ${cell(pct(xs, 0.95), 5)}`
  const least = Math.min(...thread)
  console.log(`\nThe two measures on the same ${profiled.length} home-page misses, ms:`)
  console.log(`  V8's profiler, the isolate         ${spread(profiled)}`)
  console.log(`  kernel's count, workerd's thread   ${spread(thread)}   (everything on it)`)
  console.log(
    `  renders the profiler puts under half the least the thread took (${least.toFixed(2)} ms): ${profiled.filter((ms) => ms < least / 2).length}`,
  )
}

/**
 * The same two paths as benchWorkerd, measured by the kernel's count of workerd's main thread
 * (lib/thread-cpu.mjs): what the isolate's JavaScript costs and the native work done for the
 * request besides, less what a Worker answering the same bytes from memory costs (measured
 * between the page's requests, its median subtracted; on a miss of a cached page it puts them
 * into the Cache API too, whose emulation runs on this thread). Requests go to the Worker's own
 * socket.
 */
async function benchThread() {
  await siteDatabase()
  const { Miniflare } = await import('./lib/miniflare-v4.mjs')
  const { request } = await import('undici')
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
  const results = {}
  for (const path of ['miss', 'hit']) {
    const [site, base] = [await freePort(), await freePort()]
    const known = new Set(readdirSync('/proc'))
    const worker = builtWorker(path)
    const mf = new Miniflare({
      resourcePersistencePath: siteD1.resourcePersistencePath,
      workers: [
        { name: 'site', ...worker, unsafeDirectSockets: [{ host: '127.0.0.1', port: site }] },
        {
          name: 'baseline',
          modules: true,
          script: BASELINE_WORKER,
          compatibilityDate: worker.compatibilityDate,
          // the same Cache API as the site's (off for the miss run)
          cache: worker.cache,
          unsafeDirectSockets: [{ host: '127.0.0.1', port: base }],
        },
      ],
    })
    await mf.ready
    const pid = workerdPid(known)
    // one request, the isolate idle before and after (what it leaves to waitUntil counts)
    const measure = async (url, headers = {}) => {
      await sleep(3)
      const before = threadNs(pid)
      const res = await request(url, { headers })
      const body = await res.body.arrayBuffer()
      await sleep(3)
      return { ms: (threadNs(pid) - before) / 1e6, bytes: body.byteLength, body }
    }
    console.log(
      `\nServer CPU ${path === 'miss' ? 'of a render on a cache miss' : 'of an answer on a cache hit'} in workerd, ms of its main thread less the baseline's median (${threadRuns} in en and ${threadRuns} in ar):`,
    )
    // the baseline's own p95 shows the machine's noise, which stays in the page's figures
    console.log(header + '  baseline: median    p95')
    const rows = []
    const firsts = []
    for (const [label, page, visitor] of pagesOf(path === 'hit')) {
      const net = []
      const baseline = []
      for (const lang of ['en', 'ar']) {
        const headers = {
          'Accept-Language': lang,
          ...(path === 'miss' && { 'x-render-refresh': '1' }),
          // the visitor in B, as in benchWorkerd
          ...visitorHeaders(visitor, path === 'hit'),
        }
        let bytes = 0
        for (let i = 0; i < 10; i++) {
          const answer = await measure(`http://127.0.0.1:${site}${page}`, headers)
          bytes = answer.bytes
          checkVariant(`thread ${path}`, page, lang, visitor, answer.body)
        }
        const mine = []
        for (let i = 0; i < threadRuns; i++) {
          mine.push((await measure(`http://127.0.0.1:${site}${page}`, headers)).ms)
          const put = path === 'miss' && !UNCACHED.includes(page) ? '&put=1' : ''
          baseline.push((await measure(`http://127.0.0.1:${base}/?bytes=${bytes}${put}`)).ms)
        }
        net.push(...mine)
      }
      const floor = pct(baseline, 0.5)
      const samples = net.map((ms) => ms - floor)
      console.log(`${row(label, samples)}${cell(floor, 18)}${cell(pct(baseline, 0.95))}`)
      if (judged(page, visitor)) rows.push(pct(samples, 0.95))
      else if (visitor === 'B first') firsts.push(pct(samples, 0.95))
    }
    const worst = Math.max(...rows)
    const budget = BUDGET.workerd[path]
    console.log(
      `  budget: worst page p95 ${worst.toFixed(2)} ms of ${budget} ms ${worst < budget ? 'OK' : 'OVER'} (the cached pages)`,
    )
    if (firsts.length)
      console.log(
        `  a first page in B (the app answers it, from the copy: once per visitor and experiment), worst p95 ${Math.max(...firsts).toFixed(2)} ms`,
      )
    results[path] = { p95: worst }
    await mf.dispose()
  }
  return results
}

/**
 * Requests a second against one path of a running server from `connections` clients at once,
 * for `seconds`: the home page (a cache hit after the first) against /robots.txt, the cheapest
 * route of the same worker, measured in turn in the same run.
 */
async function throughput(base, path, { connections = 50, seconds = 10 } = {}) {
  const { Pool } = await import('undici')
  const pool = new Pool(base, { connections, pipelining: 1 })
  const latencies = []
  const statuses = {}
  const until = performance.now() + seconds * 1000
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const start = performance.now()
        const res = await pool.request({ path, method: 'GET' })
        await res.body.dump()
        latencies.push(performance.now() - start)
        const render = res.headers['x-render'] ?? res.statusCode
        statuses[render] = (statuses[render] ?? 0) + 1
      }
    }),
  )
  await pool.close()
  return {
    rps: latencies.length / seconds,
    p50: pct(latencies, 0.5),
    p99: pct(latencies, 0.99),
    statuses,
  }
}

/**
 * With production's settings (`ENVIRONMENT=production`), as the budget is meant; then as
 * `npm start` runs (development), where every page view is also copied into D1 for `npm run
 * stats`, one local SQLite write per page that production does not make.
 */
async function benchThroughput() {
  for (const environment of ['production', 'development']) {
    const { baseURL, stop } = await startServer({
      persistTo: '.wrangler/bench-state',
      vars: { ENVIRONMENT: environment },
    })
    try {
      // warm: the home page's copy stored, both routes compiled
      for (let i = 0; i < 20; i++) {
        await (await fetch(baseURL + '/')).arrayBuffer()
        await (await fetch(baseURL + '/robots.txt')).arrayBuffer()
      }
      console.log(
        `\nThroughput, 50 connections, 10 s each, wrangler dev on the build, ENVIRONMENT=${environment}:`,
      )
      const cheap = await throughput(baseURL, '/robots.txt')
      const home = await throughput(baseURL, '/')
      const line = (name, r) =>
        `  ${name.padEnd(14)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(0).padStart(4)} ms  p99 ${r.p99.toFixed(0).padStart(4)} ms  (${Object.entries(
          r.statuses,
        )
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')})`
      console.log(line('/robots.txt', cheap))
      console.log(line('/ (home)', home))
      const ratio = home.rps / cheap.rps
      console.log(
        environment === 'production'
          ? `  budget: home ${ratio.toFixed(2)}× the cheap route's, at least ${BUDGET.throughputRatio}× ${ratio >= BUDGET.throughputRatio ? 'OK' : 'UNDER'}`
          : `  home ${ratio.toFixed(2)}× the cheap route's (the development copy of each page view into D1 included)`,
      )
    } finally {
      stop()
    }
  }
}

// ---- 4. the desk ------------------------------------------------------------------------------
const DESK_STATE = '.wrangler/bench-desk-state'
const DESK_LEADS = 100_000
// wrangler keys a local database by its binding when wrangler.toml gives no database_id
const DB_ID = 'DB'
/** The D1 of DESK_STATE, as `wrangler dev --persist-to` keeps it, for Miniflare. */
const deskD1 = { d1Databases: { DB: DB_ID }, resourcePersistencePath: `${DESK_STATE}/v3` }

/** A small seeded generator, so that every run seeds the same leads. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const FIRST = [
  'olivia',
  'liam',
  'amira',
  'noah',
  'sofia',
  'omar',
  'chloe',
  'lucas',
  'layla',
  'mateo',
]
const LAST = ['smith', 'garcia', 'haddad', 'muller', 'dubois', 'silva', 'khan', 'rossi', 'nakamura']
const DOMAINS = ['gmail.com', 'outlook.com', 'shop-example.co.uk', 'brand.example', 'yahoo.fr']
const DESK_LANGS = ['en', 'en', 'en', 'ar', 'ar', 'es', 'fr', 'de', 'pt']
const DESK_SERVICES = ['amazon', 'shopify', 'etsy', 'social-media-marketing', 'web-development']
const GUIDES = ['invisible-business-mistakes', 'social-media-growth-kit', 'conversion-masterclass']
const SIGNUP_FORMS = ['welcome_popup', 'guide', 'newsletter']
const SUB_STATUSES = ['pending', 'confirmed', 'confirmed', 'confirmed', 'unsubscribed']
const person = (n) => {
  const first = FIRST[n % FIRST.length]
  const last = LAST[Math.floor(n / FIRST.length) % LAST.length]
  return {
    name: `${first[0].toUpperCase()}${first.slice(1)} ${last}`,
    local: `${first}.${last}${n}`,
  }
}
/** What the inbox is searched for: part of one seeded lead's address, which no other has. */
const DESK_Q = person(41_234).local.split('.')[1]

/**
 * 100,000 leads, 40% subscribers, 35% guide requests, 25% contact messages, over the last
 * year, with marks (handled, some with a note) on some of each; multi-row INSERTs of 90 KB.
 */
async function seedLeads(db) {
  const rnd = random(42)
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)]
  const q = (s) => `'${String(s).replaceAll("'", "''")}'`
  const now = Date.now()
  const rows = { subscribers: [], guide_requests: [], contact_messages: [] }
  for (let n = 0; n < DESK_LEADS; n++) {
    const { name, local } = person(n)
    const email = q(`${local}@${pick(DOMAINS)}`)
    const at = q(new Date(now - Math.floor(rnd() * 365 * 86_400_000)).toISOString())
    const lang = q(pick(DESK_LANGS))
    const r = rnd()
    if (r < 0.4)
      rows.subscribers.push(
        `(${email}, ${q(name)}, ${q(pick(SIGNUP_FORMS))}, ${lang}, 'v1', ${q(pick(SUB_STATUSES))}, ${at})`,
      )
    else if (r < 0.75)
      rows.guide_requests.push(`(${email}, ${q(name)}, ${q(pick(GUIDES))}, ${lang}, ${at})`)
    else
      rows.contact_messages.push(
        `(${q(name)}, ${email}, ${q(pick(DESK_SERVICES))}, ${q(`Hello, I sell on ${pick(DESK_SERVICES)} and would like help with growth. `.repeat(1 + (n % 4)))}, ${lang}, ${at})`,
      )
  }
  const columns = {
    subscribers: '(email, name, signup_form, language, consent_version, status, created_at)',
    guide_requests: '(email, name, guide, language, created_at)',
    contact_messages: '(name, email, service, message, language, created_at)',
  }
  // D1 takes statements of up to 100 KB
  const statements = []
  for (const [table, values] of Object.entries(rows)) {
    let chunk = []
    let size = 0
    const flush = () => {
      statements.push(
        db.prepare(`INSERT INTO ${table} ${columns[table]} VALUES ${chunk.join(',')}`),
      )
      chunk = []
      size = 0
    }
    for (const value of values) {
      if (size + value.length > 90_000) flush()
      chunk.push(value)
      size += value.length + 1
    }
    if (chunk.length) flush()
  }
  for (const [kind, table, every] of [
    ['subscriber', 'subscribers', 20],
    ['guide', 'guide_requests', 8],
    ['contact', 'contact_messages', 3],
  ])
    statements.push(
      db.prepare(
        `INSERT INTO lead_marks (kind, lead_id, handled_at, handled_by, note, updated_at)
         SELECT '${kind}', id, created_at, 'bench@growthagency.example',
           CASE WHEN id % 2 = 0 THEN 'Called back, sent the proposal' END, created_at
         FROM ${table} WHERE id % ${every} = 0`,
      ),
    )
  for (let i = 0; i < statements.length; i += 20) await db.batch(statements.slice(i, i + 20))
  const count = await db
    .prepare(
      'SELECT (SELECT COUNT(*) FROM subscribers) + (SELECT COUNT(*) FROM guide_requests) + (SELECT COUNT(*) FROM contact_messages) AS n, (SELECT COUNT(*) FROM lead_marks) AS marks',
    )
    .first()
  return count
}

/**
 * A staff member with a second factor, through the built-in auth service as a person would:
 * sign up, be made staff in D1 (as `npm run staff -- add` does), sign in, enrol an
 * authenticator app and answer its code: the session is aal2. Answers the desk's cookies.
 * `mf` runs the built worker; `base` is the origin the tokens are issued for.
 */
async function staffCookie(mf, base) {
  const { createClient } = await import('@supabase/supabase-js')
  const { TOTP } = await import('otpauth')
  const supabase = createClient(base, 'anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // never used, and Node 20 has no WebSocket of its own for the default
    realtime: { transport: class NoWebSocket {} },
    global: { fetch: (input, init) => mf.dispatchFetch(input.url ?? String(input), init) },
  })
  const email = `bench-${crypto.randomUUID().slice(0, 8)}@growthagency.example`
  const password = 'bench staff password 1'
  const fail = (step, error) => {
    throw new Error(`desk staff account: ${step}: ${error?.message ?? error}`)
  }
  // with the token the widget would give (Cloudflare's test keys, against the stand-in)
  const signedUp = await supabase.auth.signUp({
    email,
    password,
    options: { captchaToken: DUMMY_TOKEN },
  })
  if (signedUp.error) fail('sign-up', signedUp.error)
  const db = await mf.getD1Database('DB')
  await db
    .prepare(
      "UPDATE auth_users SET app_metadata = json_set(app_metadata, '$.role', 'admin') WHERE email = ?",
    )
    .bind(email)
    .run()
  const signedIn = await supabase.auth.signInWithPassword({ email, password })
  if (signedIn.error) fail('sign-in', signedIn.error)
  const enrolled = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Bench' })
  if (enrolled.error) fail('enrol', enrolled.error)
  const { id, totp } = enrolled.data
  const code = new TOTP({
    secret: totp.secret,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  }).generate()
  const verified = await supabase.auth.mfa.challengeAndVerify({ factorId: id, code })
  if (verified.error) fail('second factor', verified.error)
  const { session } = (await supabase.auth.getSession()).data
  return `sb-access-token=${session.access_token}; sb-refresh-token=${session.refresh_token}`
}

/** The next page's cursor in an inbox page's HTML, or null on the last page. */
const nextCursor = (html) => {
  const link = html.match(/href="\/desk\?([^"]*after=[^"]*)"/)
  return link ? new URLSearchParams(link[1].replaceAll('&amp;', '&')).get('after') : null
}

/** Seeds, signs in, measures the page's bytes in Chromium; then the server, in 4b and 4c. */
async function benchDesk() {
  const { rmSync } = await import('node:fs')
  rmSync(DESK_STATE, { recursive: true, force: true })
  const seedStart = performance.now()
  await migrate(DESK_STATE)
  // the wrangler dev of the page's bytes serves on this port: tokens name its origin
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  // production refuses the generated key the auth service keeps in a local D1: one of its own
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const keys = {
    AUTH_SIGNING_KEY: JSON.stringify({
      ...privateKey.export({ format: 'jwk' }),
      kid: 'bench',
      alg: 'ES256',
    }),
  }
  // the sign-up's challenge (issue 45), answered by the local stand-in as on npm start
  const standin = await startTurnstileStandin()
  const mf = await deskWorkerd({
    ...keys,
    AUTH_AUTOCONFIRM: 'true',
    TURNSTILE_SCRIPT_URL: standin.scriptURL,
    TURNSTILE_VERIFY_URL: standin.verifyURL,
    TURNSTILE_SITE_KEY: DUMMY_SITE_KEY,
    TURNSTILE_SECRET_KEY: DUMMY_SECRET,
  })
  const seeded = await seedLeads(await mf.getD1Database('DB'))
  const cookie = await staffCookie(mf, base)
  await mf.dispose()
  await standin.stop()
  console.log(
    `\nDesk: ${seeded.n} leads and ${seeded.marks} marks seeded, and a staff member signed in with a second factor, in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  )

  const { stop } = await startServer({ persistTo: DESK_STATE, port, vars: keys })
  let deep, js
  try {
    // a page six pages in, by the inbox's own "next" links
    let after = null
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${base}/desk${after ? `?after=${encodeURIComponent(after)}` : ''}`, {
        headers: { Cookie: cookie },
      })
      if (res.status !== 200) throw new Error(`desk: GET /desk answered ${res.status}`)
      after = nextCursor(await res.text())
    }
    deep = `/desk?after=${encodeURIComponent(after)}`
    js = await deskBytes(base, cookie)
  } finally {
    stop()
  }
  // workerd of wrangler dev lets go of the D1 before Miniflare opens it
  await new Promise((r) => setTimeout(r, 1000))
  const paths = [
    ['first page', '/desk'],
    ['contact, open', '/desk?kind=contact&status=open'],
    [`q=${DESK_Q}`, `/desk?q=${DESK_Q}`],
    ['page 6 (?after=)', deep],
  ]
  const job = JSON.stringify({ base, cookie, paths, keys })
  execFileSync(
    process.execPath,
    [
      '--single-threaded',
      new URL(import.meta.url).pathname,
      '--desk-render-only',
      '--runs',
      String(runs),
    ],
    { stdio: 'inherit', env: { ...process.env, BENCH_DESK: job } },
  )
  await benchDeskWorkerd({ base, cookie, paths, keys })
  return js
}

/** Every script, stylesheet and the document the inbox loads, raw / gzip / brotli. */
async function deskBytes(base, cookie) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } })
  const [access, refresh] = cookie.split('; ').map((c) => c.split('='))
  await context.addCookies([access, refresh].map(([name, value]) => ({ name, value, url: base })))
  const page = await context.newPage()
  const bodies = []
  page.on('response', async (res) => {
    const type = res.request().resourceType()
    if (['script', 'stylesheet', 'document'].includes(type)) bodies.push({ type, body: res.body() })
  })
  const res = await page.goto(base + '/desk', { waitUntil: 'networkidle' })
  if (res.status() !== 200) throw new Error(`desk: Chromium got ${res.status()} for /desk`)
  await page.waitForTimeout(500)
  await browser.close()
  const sum = { script: [0, 0, 0], stylesheet: [0, 0, 0], document: [0, 0, 0] }
  for (const { type, body } of bodies) {
    const b = await body
    sum[type][0] += b.length
    sum[type][1] += gzip(b)
    sum[type][2] += brotli(b)
  }
  console.log('\nDesk inbox (/desk) transfer at load, desktop (raw / gzip / brotli):')
  for (const [type, name] of [
    ['script', 'JS  '],
    ['stylesheet', 'CSS '],
    ['document', 'HTML'],
  ])
    console.log(
      `  ${name} ${kb(sum[type][0]).padStart(9)} / ${kb(sum[type][1]).padStart(8)} / ${kb(sum[type][2]).padStart(8)}`,
    )
  const scripts = sum.script[1]
  console.log(
    `  budget: JS ${kb(scripts)} gzip of ${kb(BUDGET.js)} ${scripts < BUDGET.js ? 'OK' : 'OVER'}`,
  )
  return sum.script
}

/** `runs` samples of each desk page in en and in ar (after ten of warm-up); worst p95. */
async function sampleDesk(paths, measure) {
  let worst = 0
  for (const [label, path] of paths) {
    const samples = []
    for (const lang of ['en', 'ar']) {
      for (let i = 0; i < 10; i++) await measure(path, lang)
      for (let i = 0; i < runs; i++) samples.push(await measure(path, lang))
    }
    console.log(row(label, samples))
    worst = Math.max(worst, pct(samples, 0.95))
  }
  const ok = worst < BUDGET.cpuMs ? 'OK' : 'OVER'
  return `worst p95 ${worst.toFixed(2)} ms of ${BUDGET.cpuMs} ms ${ok}`
}

const withLang = (path, lang) => `${path}${path.includes('?') ? '&' : '?'}lang=${lang}`

/**
 * 4b. CPU of the desk in this single-threaded Node process, as in 2, with the seeded D1 through
 * Miniflare: the queries run in workerd's process, so what counts here is the render, the
 * guard's token checks and the D1 client, shown apart: Miniflare's proxy, far dearer than a
 * Worker's binding (prepare() and bind() are each a synchronous round trip from a thread).
 */
async function benchDeskRender() {
  register('./lib/workers-modules.mjs', import.meta.url)
  const { Miniflare } = await import('./lib/miniflare-v4.mjs')
  const { base, cookie, paths, keys } = JSON.parse(process.env.BENCH_DESK)
  const { default: worker } = await import(
    new URL('../dist/growth_agency/index.js', import.meta.url)
  )
  const mf = new Miniflare({
    modules: true,
    script: 'export default { fetch: () => new Response() }',
    ...deskD1,
  })
  const d1 = await mf.getD1Database('DB')
  let inD1 = 0
  const timed =
    (call) =>
    async (...a) => {
      const start = process.cpuUsage()
      try {
        return await call(...a)
      } finally {
        const d = process.cpuUsage(start)
        inD1 += (d.user + d.system) / 1000
      }
    }
  // Miniflare's proxy answers prepare() and bind() synchronously, from a thread of its own in
  // this process (its CPU counts in process.cpuUsage too)
  const timedSync = (call) => {
    const start = process.cpuUsage()
    try {
      return call()
    } finally {
      const d = process.cpuUsage(start)
      inD1 += (d.user + d.system) / 1000
    }
  }
  const RAW = Symbol('statement')
  const statement = (s) => ({
    [RAW]: s,
    bind: (...a) => statement(timedSync(() => s.bind(...a))),
    first: timed((...a) => s.first(...a)),
    all: timed(() => s.all()),
    run: timed(() => s.run()),
    raw: timed((...a) => s.raw(...a)),
  })
  const DB = {
    prepare: (sql) => statement(timedSync(() => d1.prepare(sql))),
    batch: timed((list) => d1.batch(list.map((s) => s[RAW]))),
    // one local database: a read-replication session is the database itself
    withSession: () => ({ ...DB, getBookmark: () => null }),
  }
  const ctx = { waitUntil() {}, passThroughOnException() {} }
  // one env for every request, as an isolate has
  const deskEnv = { ...env, ...keys, DB }
  const lessD1 = []
  const render = async (path, lang) => {
    inD1 = 0
    const start = process.cpuUsage()
    const res = await worker.fetch(
      new Request(base + withLang(path, lang), { headers: { Cookie: cookie } }),
      deskEnv,
      ctx,
    )
    const html = await res.text()
    const d = process.cpuUsage(start)
    if (res.status !== 200 || !html.includes('/desk/leads/'))
      throw new Error(`desk: ${path} answered ${res.status} without leads`)
    const cpu = (d.user + d.system) / 1000
    lessD1.push(cpu - inD1)
    return cpu
  }
  console.log(
    `\nDesk server CPU in Node, ms (${runs} in en and ${runs} in ar, after warm-up; ${DESK_LEADS.toLocaleString('en')} leads):`,
  )
  console.log(header)
  await sampleDesk(paths, render)
  // The same samples less the D1 client's share: the guard, building the queries, the render.
  // This is the budget's figure: Miniflare's client in Node is a synchronous proxy far dearer
  // than a Worker's binding, whose queries run outside the isolate.
  console.log('  the same less the D1 client (its CPU in Node; SQLite itself runs in workerd):')
  let worst = 0
  for (const [label] of paths) {
    // each page's calls: 10 of warm-up and `runs` samples in en, then the same in ar
    const calls = lessD1.splice(0, 2 * (runs + 10))
    const samples = [...calls.slice(10, 10 + runs), ...calls.slice(runs + 20)]
    console.log(row(label, samples))
    worst = Math.max(worst, pct(samples, 0.95))
  }
  console.log(
    `  worst p95 ${worst.toFixed(2)} ms (p95 and max include collections of the proxy's garbage on the one thread; the budget is read in workerd, 4c)`,
  )
  await mf.dispose()
}

/** The built worker in workerd on the desk's D1, with `extra` vars. */
async function deskWorkerd(extra = {}, more = {}) {
  const { Miniflare } = await import('./lib/miniflare-v4.mjs')
  return new Miniflare({
    ...builtWorker(),
    bindings: { ...env, ...extra },
    ...deskD1,
    ...more,
  })
}

/**
 * 4c. The desk in workerd, as in 3: CPU of the Worker's isolate per request (the guard, the
 * queries' JavaScript, the render), the D1 queries themselves left out as on Cloudflare, where
 * SQLite runs in D1's own process; and the wall time of the same requests, D1 included.
 */
async function benchDeskWorkerd({ base, cookie, paths, keys }) {
  const { inspectorPort } = await withInspector({})
  const mf = await deskWorkerd(keys, { inspectorPort })
  const cpu = await isolateCpu(mf, inspectorPort)
  const walls = new Map()
  const request = async (path, lang) => {
    const start = performance.now()
    const res = await mf.dispatchFetch(base + withLang(path, lang), {
      redirect: 'manual',
      headers: { Cookie: cookie },
    })
    const html = await res.text()
    if (res.status !== 200 || !html.includes('/desk/leads/'))
      throw new Error(`desk: ${path} answered ${res.status} without leads`)
    if (!walls.has(path)) walls.set(path, [])
    walls.get(path).push(performance.now() - start)
  }
  console.log(
    `\nDesk server CPU in workerd, ms of the Worker's isolate, D1's SQLite aside (${runs} in en and ${runs} in ar; ${DESK_LEADS.toLocaleString('en')} leads):`,
  )
  console.log(header)
  const worst = await sampleIsolate(cpu, paths, request)
  console.log(
    `  budget: worst p95 ${worst.p95.toFixed(2)} ms of ${BUDGET.cpuMs} ms ${worst.p95 < BUDGET.cpuMs ? 'OK' : 'OVER'}`,
  )
  console.log('  wall time of the same requests (D1 queries and the profiler included):')
  for (const [label, path] of paths) {
    // each path's 10 of warm-up and `runs` samples in en, then the same in ar
    const all = walls.get(path)
    console.log(row(label, [...all.slice(10, 10 + runs), ...all.slice(runs + 20)]))
  }
  await mf.dispose()
}

// ---- 5. the desk's history -------------------------------------------------------------------
const HISTORY_STATE = '.wrangler/bench-history-state'
const HISTORY_ROWS = 100_000
/** Who the seeded rows name: twelve members and the site itself (an empty actor). */
const HISTORY_ACTORS = [...Array.from({ length: 12 }, (_, i) => `member-${i}`), '']
const HISTORY_ACTIONS = [
  ['lead.mark', "'contact/' || i"],
  ['leads.export', 'NULL'],
  ['booking.cancel', "'booking/' || i"],
  ['booking.move', "'booking/' || i"],
  ['mail.resend', "'mail/' || i"],
  ['content.save', "'article/article-' || (i % 40)"],
  ['content.publish', "'article/article-' || (i % 40)"],
  ['newsletter.save', "'newsletter/' || (i % 30)"],
  ['newsletter.send', "'newsletter/' || (i % 30)"],
  ['team.role', "'member/member-' || (i % 12)"],
  ['team.invite', "'invite/' || i"],
  ['desk.sign_in', 'NULL'],
]

/**
 * `n` audit rows, one every ten minutes back from now (100,000 span about two years): actors in
 * turn, actions in turn, each with the target its action names. One INSERT … SELECT.
 */
async function seedAudit(db, n) {
  const pick = (list, i) => `CASE ${i} ${list.map((x, k) => `WHEN ${k} THEN ${x}`).join(' ')} END`
  await db.prepare('DELETE FROM desk_audit').run()
  await db
    .prepare(
      `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ${n})
       INSERT INTO desk_audit (actor_id, actor_email, action, target, detail, created_at)
       SELECT ${pick(
         HISTORY_ACTORS.map((a) => `'${a}'`),
         `i % ${HISTORY_ACTORS.length}`,
       )},
         ${pick(
           HISTORY_ACTORS.map((a) => (a ? `'${a}@growthagency.example'` : "''")),
           `i % ${HISTORY_ACTORS.length}`,
         )},
         ${pick(
           HISTORY_ACTIONS.map(([a]) => `'${a}'`),
           `i % ${HISTORY_ACTIONS.length}`,
         )},
         ${pick(
           HISTORY_ACTIONS.map(([, target]) => target),
           `i % ${HISTORY_ACTIONS.length}`,
         )},
         '{"email":"someone@example.org","from":"editor","to":"admin"}',
         strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (i * 600) || ' seconds')
       FROM seq`,
    )
    .run()
}

/** A cursor `depth` rows into the rows `where` picks, newest first, as the page's link writes it. */
async function cursorAt(db, where, depth) {
  const row = await db
    .prepare(
      `SELECT created_at, id FROM desk_audit ${where ? `WHERE ${where}` : ''}
       ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${depth}`,
    )
    .first()
  // (fewer rows than that: from the newest, as the first page)
  return encodeURIComponent(row ? `${row.created_at}~${row.id}` : '2100-01-01T00:00:00.000Z~0')
}

/**
 * 5. The history in workerd with D1, as the agency's browser asks for it: each page's wall
 * time, its D1 queries included, over 10 rows and over 100,000. A page read by index costs the
 * same at both sizes; a scan or a sort would grow with the log.
 */
async function benchHistory() {
  const { rmSync } = await import('node:fs')
  rmSync(HISTORY_STATE, { recursive: true, force: true })
  await migrate(HISTORY_STATE)
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const keys = {
    AUTH_SIGNING_KEY: JSON.stringify({
      ...privateKey.export({ format: 'jwk' }),
      kid: 'bench',
      alg: 'ES256',
    }),
  }
  const standin = await startTurnstileStandin()
  const base = 'http://127.0.0.1:8787'
  const { Miniflare } = await import('./lib/miniflare-v4.mjs')
  const mf = new Miniflare({
    ...builtWorker(),
    bindings: {
      ...env,
      ...keys,
      AUTH_AUTOCONFIRM: 'true',
      TURNSTILE_SCRIPT_URL: standin.scriptURL,
      TURNSTILE_VERIFY_URL: standin.verifyURL,
      TURNSTILE_SITE_KEY: DUMMY_SITE_KEY,
      TURNSTILE_SECRET_KEY: DUMMY_SECRET,
    },
    d1Databases: { DB: DB_ID },
    resourcePersistencePath: `${HISTORY_STATE}/v3`,
  })
  try {
    const cookie = await staffCookie(mf, base)
    const db = await mf.getD1Database('DB')
    const request = async (path) => {
      const start = performance.now()
      const res = await mf.dispatchFetch(base + path, { headers: { Cookie: cookie } })
      const html = await res.text()
      if (res.status !== 200 || !html.includes('/desk/history.csv'))
        throw new Error(`history: ${path} answered ${res.status}`)
      return performance.now() - start
    }
    const results = {}
    for (const n of [10, HISTORY_ROWS]) {
      const seedStart = performance.now()
      await seedAudit(db, n)
      const seeded = ((performance.now() - seedStart) / 1000).toFixed(1)
      // "far in": 90% of the way down the rows the filter picks
      const deep = Math.floor(n * 0.9)
      const member = "actor_id = 'member-3'"
      const paths = [
        ['first page', '/desk/history'],
        ['person and dates', `/desk/history?who=member-3&from=2000-01-01&to=2100-01-01`],
        ['a kind (content)', '/desk/history?action=content'],
        ['far in', `/desk/history?after=${await cursorAt(db, '', deep)}`],
        [
          'far in, person + kind',
          `/desk/history?who=member-3&action=content&after=${await cursorAt(
            db,
            `${member} AND action IN ('content.save', 'content.publish')`,
            Math.floor(deep / HISTORY_ACTORS.length / 6),
          )}`,
        ],
      ]
      console.log(
        `\nDesk history over ${n.toLocaleString('en')} audit rows (seeded in ${seeded} s), wall time of a page in workerd, D1 included, ms (${runs} each after 30):`,
      )
      console.log(header)
      for (const [label, path] of paths) {
        for (let i = 0; i < 30; i++) await request(path)
        const samples = []
        for (let i = 0; i < runs; i++) samples.push(await request(path))
        console.log(row(label, samples))
        results[label] = { ...results[label], [n]: pct(samples, 0.5) }
      }
    }
    console.log(`  median at ${HISTORY_ROWS.toLocaleString('en')} rows / median at 10 rows:`)
    for (const [label, by] of Object.entries(results))
      console.log(`  ${label.padEnd(26)}${(by[HISTORY_ROWS] / by[10]).toFixed(2).padStart(7)}`)
  } finally {
    await mf.dispose()
    await standin.stop()
  }
}

/**
 * The built Worker as `wrangler deploy` uploads it (dist/growth_agency: the main module and
 * the chunks it loads, lib/built-worker.mjs) and measures it: the modules' bytes, and the gzip
 * of them joined, the figure Cloudflare's size limit reads. Over budget the exit code is 1.
 */
function workerSize() {
  const [main, ...chunks] = builtModules()
  // wrangler's order: the other modules, then the main one
  const bodies = [...chunks.sort(), main].map((f) => readFileSync(`${BUILD}/${f}`))
  const raw = bodies.reduce((n, b) => n + b.length, 0)
  const gzipped = gzipSync(Buffer.concat(bodies)).length
  const ok = gzipped <= BUDGET.workerGzip
  const n = (x) => x.toLocaleString('en')
  console.log(
    `\nThe Worker's upload (${bodies.length} module${bodies.length === 1 ? '' : 's'}): ${n(raw)} bytes, ${n(gzipped)} gzipped`,
  )
  console.log(
    `  budget: ${n(gzipped)} of ${n(BUDGET.workerGzip)} bytes gzipped ${ok ? 'OK' : 'OVER'}`,
  )
  if (!ok) process.exitCode = 1
}

// ---- main ------------------------------------------------------------------------------------
if (args.includes('--render-only')) {
  await benchRender()
  process.exit(0)
}
if (args.includes('--desk-render-only')) {
  await benchDeskRender()
  process.exit(0)
}
if (args.includes('--workerd-only')) {
  await benchWorkerd()
  await bothMeasures()
  await benchThread()
  process.exit(0)
}
if (args.includes('--throughput-only')) {
  await benchThroughput()
  process.exit(0)
}
if (!args.includes('--no-build'))
  execFileSync('npm', ['run', 'build', '--silent', '--', '--logLevel', 'warn'], {
    stdio: 'inherit',
  })
workerSize()
if (args.includes('--size-only')) process.exit()

const kb = (n) => (n / 1024).toFixed(1) + ' KB'
const gzip = (b) => gzipSync(b, { level: 9 }).length
const brotli = (b) =>
  brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length

if (args.includes('--desk-only')) {
  await benchDesk()
  process.exit()
}
if (args.includes('--history-only')) {
  await benchHistory()
  process.exit()
}

// ---- 1. bytes of the home page ---------------------------------------------------------------
const { baseURL: base, stop } = await startServer({ persistTo: '.wrangler/bench-state' })
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
const totals = {}
// "load": what the page fetches to show and work; "scrolled": after the visitor has scrolled to
// the footer, by which time every island (and React with them) has been fetched too.
for (const [label, viewport] of [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
]) {
  const context = await browser.newContext({ viewport })
  await context.addInitScript(() => localStorage.setItem('welcome-popup-seen', '1'))
  const page = await context.newPage()
  const bodies = []
  page.on('response', async (res) => {
    const type = res.request().resourceType()
    if (['script', 'stylesheet', 'document'].includes(type)) bodies.push({ type, body: res.body() })
  })
  await page.goto(base + '/', { waitUntil: 'networkidle' })
  await page.waitForSelector('body[data-hydrated]', { state: 'attached' })
  const atLoad = bodies.length
  for (let y = 0; y < 12_000; y += 600) await page.evaluate((top) => window.scrollTo(0, top), y)
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(500)
  await context.close()
  for (const [phase, list] of [
    ['load', bodies.slice(0, atLoad)],
    ['scrolled', bodies],
  ]) {
    const sum = { script: [0, 0, 0], stylesheet: [0, 0, 0], document: [0, 0, 0] }
    for (const { type, body } of list) {
      const b = await body
      sum[type][0] += b.length
      sum[type][1] += gzip(b)
      sum[type][2] += brotli(b)
    }
    totals[`${label} ${phase}`] = sum
  }
}
await browser.close()
stop()

console.log('\nHome page transfer (raw / gzip / brotli):')
for (const [label, sum] of Object.entries(totals)) {
  for (const [type, name] of [
    ['script', 'JS  '],
    ['stylesheet', 'CSS '],
    ['document', 'HTML'],
  ])
    console.log(
      `  ${label.padEnd(16)} ${name} ${kb(sum[type][0]).padStart(9)} / ${kb(sum[type][1]).padStart(8)} / ${kb(sum[type][2]).padStart(8)}`,
    )
}
const js = Math.max(totals['desktop scrolled'].script[1], totals['phone scrolled'].script[1])
const css = totals['desktop scrolled'].stylesheet[1]
console.log(
  `  budget (everything, after scrolling): JS ${kb(js)} gzip of ${kb(BUDGET.js)} ${js < BUDGET.js ? 'OK' : 'OVER'}; CSS ${kb(css)} gzip of ${kb(BUDGET.css)} ${css < BUDGET.css ? 'OK' : 'OVER'}`,
)

// ---- 2. server render CPU: in a child process, see the header ------------------------------
execFileSync(
  process.execPath,
  [
    '--single-threaded',
    '--expose-gc',
    new URL(import.meta.url).pathname,
    '--render-only',
    '--runs',
    String(runs),
  ],
  { stdio: 'inherit' },
)
await benchWorkerd()
await bothMeasures()
await benchThread()
await benchThroughput()
await benchDesk()
await benchHistory()
