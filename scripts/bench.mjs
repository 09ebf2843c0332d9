// `npm run bench`: the performance budgets of DEVELOPERS.md, measured on the production build.
//  1. Bytes the home page makes a visitor download (JS, CSS, HTML), gzip and brotli, as loaded
//     by Chromium from `wrangler dev`.
//  2. CPU time of the server render of every page: the built worker's fetch handler run in
//     Node (same V8 as workerd) with V8's helper threads off (--single-threaded), so that
//     process.cpuUsage() counts the one thread a Worker's CPU limit counts, GC included.
//  3. The same renders in workerd itself (Miniflare), as wall time less a request's overhead.
// Flags: --no-build (use dist/ as it is), --runs N (render samples per page, default 40),
// --render-only (2 alone, run it with node --single-threaded), --workerd-only (3 alone).
import { register } from 'node:module'
import { execFileSync } from 'node:child_process'
import { CHROMIUM_ARGS, CHROMIUM_PATH, startServer } from './lib/server.mjs'
import { readFileSync } from 'node:fs'
import { brotliCompressSync, gzipSync, constants } from 'node:zlib'
import { chromium } from 'playwright-core'

const BUDGET = { js: 90 * 1024, css: 20 * 1024, cpuMs: 10 }
const args = process.argv.slice(2)
const runs = Number(args[args.indexOf('--runs') + 1]) || 40

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

/** Samples `runs` renders of every page in en and in ar (after ten of warm-up) with `measure`. */
async function samplePages(measure) {
  const results = []
  for (const path of PATHS) {
    const samples = []
    for (const lang of ['en', 'ar']) {
      for (let i = 0; i < 10; i++) await measure(path, lang)
      for (let i = 0; i < runs; i++) samples.push(await measure(path, lang))
    }
    console.log(row(path, samples))
    results.push(mean(samples))
  }
  return Math.max(...results)
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

/** CPU of the built worker's fetch handler in this (single-threaded) Node process. */
async function benchRender() {
  // the worker's cloudflare:* imports (mail providers) have stand-ins in Node
  register('./lib/workers-modules.mjs', import.meta.url)
  const { default: worker } = await import(
    new URL('../dist/growth_agency/index.js', import.meta.url)
  )
  const ctx = { waitUntil() {}, passThroughOnException() {} }
  const render = async (path, lang) => {
    const start = process.cpuUsage()
    const res = await worker.fetch(
      new Request(`https://bench.example${path}?lang=${lang}`),
      { ...env, DB: null },
      ctx,
    )
    await res.arrayBuffer()
    const d = process.cpuUsage(start)
    return (d.user + d.system) / 1000
  }
  console.log(
    `\nServer render CPU per page in Node, ms (${runs} renders in en and ${runs} in ar, after warm-up):`,
  )
  console.log(header)
  const worst = await samplePages(render)
  console.log(`  budget: ${verdict(worst)} (p95 and max include full GCs on the one thread)`)
}

/**
 * The same renders in workerd, Cloudflare's runtime, through Miniflare. workerd reports no CPU
 * time locally, so this is wall time less that of a request the worker answers without
 * rendering (a trailing-slash redirect through the same middleware): what is left is the render.
 */
async function benchWorkerd() {
  const { Miniflare } = await import('miniflare')
  const built = JSON.parse(
    readFileSync(new URL('../dist/growth_agency/wrangler.json', import.meta.url), 'utf8'),
  )
  const mf = new Miniflare({
    modules: [{ type: 'ESModule', path: 'dist/growth_agency/index.js' }],
    compatibilityDate: built.compatibility_date,
    compatibilityFlags: built.compatibility_flags ?? [],
    bindings: env,
    d1Databases: { DB: 'bench' },
  })
  const wall = async (path, lang) => {
    const start = performance.now()
    const res = await mf.dispatchFetch(`http://bench.example${path}?lang=${lang}`, {
      redirect: 'manual',
    })
    await res.arrayBuffer()
    return performance.now() - start
  }
  // Each sample is a render less the request just before it that renders nothing, so drift in
  // the machine's load cancels out; on the smallest pages single samples can come out negative.
  console.log(
    `\nServer render in workerd, ms of wall time less that of a request without a render, just before it (${runs} renders in en and ${runs} in ar):`,
  )
  console.log(header)
  const worst = await samplePages(async (path, lang) => {
    const overhead = await wall('/about/', lang)
    return (await wall(path, lang)) - overhead
  })
  console.log(`  budget: ${verdict(worst)}`)
  await mf.dispose()
}

// ---- main ------------------------------------------------------------------------------------
if (args.includes('--render-only')) {
  await benchRender()
  process.exit(0)
}
if (args.includes('--workerd-only')) {
  await benchWorkerd()
  process.exit(0)
}
if (!args.includes('--no-build'))
  execFileSync('npm', ['run', 'build', '--silent', '--', '--logLevel', 'warn'], {
    stdio: 'inherit',
  })

const kb = (n) => (n / 1024).toFixed(1) + ' KB'
const gzip = (b) => gzipSync(b, { level: 9 }).length
const brotli = (b) =>
  brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length

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
  ['--single-threaded', new URL(import.meta.url).pathname, '--render-only', '--runs', String(runs)],
  { stdio: 'inherit' },
)
await benchWorkerd()
