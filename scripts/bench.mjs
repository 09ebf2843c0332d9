// `npm run bench`: the performance budgets of DEVELOPERS.md, measured on the production build.
//  1. Bytes the home page makes a visitor download (JS, CSS, HTML), gzip and brotli, as loaded
//     by Chromium from `wrangler dev`.
//  2. CPU time of the server render of every page: the built worker's fetch handler run in
//     Node (same V8 as workerd), timed with process.cpuUsage() while the stream is consumed.
// Flags: --no-build (use dist/ as it is), --runs N (render samples per page, default 40).
import { spawn, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { brotliCompressSync, gzipSync, constants } from 'node:zlib'
import { chromium } from 'playwright-core'

const args = process.argv.slice(2)
const runs = Number(args[args.indexOf('--runs') + 1]) || 40
if (!args.includes('--no-build'))
  execFileSync('npm', ['run', 'build', '--silent', '--', '--logLevel', 'warn'], {
    stdio: 'inherit',
  })

const BUDGET = { js: 90 * 1024, css: 20 * 1024, cpuMs: 10 }
const kb = (n) => (n / 1024).toFixed(1) + ' KB'
const gzip = (b) => gzipSync(b, { level: 9 }).length
const brotli = (b) =>
  brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length

// ---- 1. bytes of the home page ---------------------------------------------------------------
const port = await new Promise((resolve) => {
  const srv = createServer().listen(0, '127.0.0.1', () => {
    const { port } = srv.address()
    srv.close(() => resolve(port))
  })
})
const server = spawn(
  'npx',
  [
    'wrangler',
    'dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--log-level',
    'error',
    '--persist-to',
    '.wrangler/bench-state',
  ],
  {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
  },
)
const base = `http://127.0.0.1:${port}`
for (let i = 0; i < 240; i++) {
  try {
    if ((await fetch(base + '/favicon.svg')).ok) break
  } catch {}
  await new Promise((r) => setTimeout(r, 250))
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
})
const totals = {}
for (const [label, viewport] of [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
]) {
  const page = await browser.newPage({ viewport })
  const bodies = []
  page.on('response', async (res) => {
    const type = res.request().resourceType()
    if (['script', 'stylesheet', 'document'].includes(type))
      bodies.push({ type, url: res.url(), body: res.body() })
  })
  await page.goto(base + '/', { waitUntil: 'networkidle' })
  await page.waitForSelector('body[data-hydrated]', { state: 'attached' })
  await page.close()
  const sum = { script: [0, 0, 0], stylesheet: [0, 0, 0], document: [0, 0, 0] }
  for (const { type, body } of bodies) {
    const b = await body
    sum[type][0] += b.length
    sum[type][1] += gzip(b)
    sum[type][2] += brotli(b)
  }
  totals[label] = sum
}
await browser.close()
process.kill(-server.pid, 'SIGTERM')

console.log('\nHome page transfer (raw / gzip / brotli):')
for (const [label, sum] of Object.entries(totals)) {
  for (const [type, name] of [
    ['script', 'JS  '],
    ['stylesheet', 'CSS '],
    ['document', 'HTML'],
  ])
    console.log(
      `  ${label.padEnd(7)} ${name} ${kb(sum[type][0]).padStart(9)} / ${kb(sum[type][1]).padStart(8)} / ${kb(sum[type][2]).padStart(8)}`,
    )
}
const js = totals.desktop.script[1]
const css = totals.desktop.stylesheet[1]
console.log(
  `  budget: JS ${kb(js)} gzip of ${kb(BUDGET.js)} ${js < BUDGET.js ? 'OK' : 'OVER'}; CSS ${kb(css)} gzip of ${kb(BUDGET.css)} ${css < BUDGET.css ? 'OK' : 'OVER'}`,
)

// ---- 2. server render CPU ------------------------------------------------------------------
const { default: worker } = await import(new URL('../dist/growth_agency/index.js', import.meta.url))
const vars = Object.fromEntries(
  [
    ...readFileSync(new URL('../wrangler.toml', import.meta.url), 'utf8').matchAll(
      /^([A-Z_]+) = "(.*)"$/gm,
    ),
  ].map((m) => [m[1], m[2]]),
)
const env = { ...vars, DB: null }
const ctx = { waitUntil() {}, passThroughOnException() {} }
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

async function render(path, lang) {
  const res = await worker.fetch(new Request(`https://bench.example${path}?lang=${lang}`), env, ctx)
  await res.arrayBuffer()
  return res.status
}
const cpuOf = async (fn) => {
  const start = process.cpuUsage()
  await fn()
  const d = process.cpuUsage(start)
  return (d.user + d.system) / 1000
}
const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]

console.log(
  `\nServer render CPU per page (ms, ${runs} runs after warm-up; median / p95 / max over en and ar):`,
)
let worst = 0
for (const path of PATHS) {
  const samples = []
  for (const lang of ['en', 'ar']) {
    for (let i = 0; i < 10; i++) await render(path, lang)
    for (let i = 0; i < runs; i++) samples.push(await cpuOf(() => render(path, lang)))
  }
  const p95 = pct(samples, 0.95)
  worst = Math.max(worst, p95)
  console.log(
    `  ${path.padEnd(26)} ${pct(samples, 0.5).toFixed(2).padStart(6)} / ${p95.toFixed(2).padStart(6)} / ${Math.max(
      ...samples,
    )
      .toFixed(2)
      .padStart(6)}`,
  )
}
const cold = await cpuOf(async () => {
  const { default: fresh } = await import(
    new URL(`../dist/growth_agency/index.js?cold=${Date.now()}`, import.meta.url)
  )
  const res = await fresh.fetch(new Request('https://bench.example/?lang=en'), env, ctx)
  await res.arrayBuffer()
})
console.log(`  first render after loading the module (cold start): ${cold.toFixed(1)} ms`)
console.log(
  `  budget: p95 ${worst.toFixed(2)} ms of ${BUDGET.cpuMs} ms ${worst < BUDGET.cpuMs ? 'OK' : 'OVER'}`,
)
