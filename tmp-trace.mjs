import { chromium } from 'playwright-core'
import { readFileSync } from 'node:fs'
import { CHROMIUM_ARGS, CHROMIUM_PATH, startServer } from './scripts/lib/server.mjs'
const { baseURL, stop } = await startServer({ persistTo: '.wrangler/bench-state' })
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
const lang = process.argv[2] || 'ar', path = process.argv[3] || '/'
const ctx = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true })
await ctx.addInitScript((splash) => { localStorage.setItem('welcome-popup-seen', '1'); if (!splash) sessionStorage.setItem('splash-seen', '1') }, !!process.env.SPLASH)
const page = await ctx.newPage()
const cdp = await ctx.newCDPSession(page)
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
await browser.startTracing(page, { path: '/tmp/trace.json', categories: ['disabled-by-default-devtools.timeline.invalidationTracking', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'gpu', 'v8', 'loading'] })
await page.goto(baseURL + path + '?lang=' + lang, { waitUntil: 'load' })
await page.waitForTimeout(3500)
await browser.stopTracing()
await browser.close(); stop()
const { traceEvents } = JSON.parse(readFileSync('/tmp/trace.json', 'utf8'))
// main thread: the renderer thread named CrRendererMain
const names = traceEvents.filter(e => e.name === 'thread_name' && e.args.name === 'CrRendererMain')
const tids = new Set(names.map(e => e.pid + ':' + e.tid))
const ev = traceEvents.filter(e => tids.has(e.pid + ':' + e.tid) && e.ph === 'X' && e.dur)
// self-time per event name (approx: total dur of top-level by name)
const agg = new Map()
for (const e of ev) agg.set(e.name, (agg.get(e.name) || 0) + e.dur)
for (const [k, v] of [...agg].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((v / 1000).toFixed(0).padStart(7), k)
// Long RunTask children
const tasks = ev.filter(e => e.name === 'RunTask' && e.dur > 50000 * 1)
for (const t of tasks) {
  const kids = ev.filter(e => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.name !== 'RunTask')
  const k = new Map(); for (const e of kids) k.set(e.name, (k.get(e.name) || 0) + e.dur)
  console.log('TASK', (t.dur / 1000).toFixed(0), [...k].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([n, d]) => n + ':' + (d / 1000).toFixed(0)).join(' '))
}
const t0 = ev.find(e => e.name === 'DocumentLoader::CommitNavigation')?.ts ?? ev[0].ts
console.log('--- Layouts')
for (const e of ev.filter(e => e.name === 'Layout')) console.log(((e.ts - t0) / 1000).toFixed(0), (e.dur / 1000).toFixed(1), JSON.stringify(e.args?.beginData ?? {}).slice(0, 150))
console.log('--- style recalc')
for (const e of ev.filter(e => e.name === 'UpdateLayoutTree' && e.dur > 5000)) console.log(((e.ts - t0) / 1000).toFixed(0), (e.dur / 1000).toFixed(1), JSON.stringify(e.args?.elementCount ?? e.args?.beginData ?? {}).slice(0, 150))
const inv = traceEvents.filter(e => tids.has(e.pid + ':' + e.tid) && (e.name === 'LayoutInvalidationTracking' || e.name === 'ScheduleStyleInvalidationTracking' || e.name === 'StyleRecalcInvalidationTracking'))
const reasons = new Map(); for (const e of inv) { const r = e.name + ':' + (e.args?.data?.reason ?? ''); reasons.set(r, (reasons.get(r) || 0) + 1) }
console.log([...reasons].sort((a, b) => b[1] - a[1]).slice(0, 15))
for (const e of traceEvents.filter(e => tids.has(e.pid + ':' + e.tid) && /Font|font/.test(e.name)).slice(0, 20)) console.log(((e.ts - t0) / 1000).toFixed(0), e.name, JSON.stringify(e.args).slice(0, 120))
console.log('--- enclosing forced layouts')
for (const f of ev.filter(e => e.name === 'Blink.ForcedStyleAndLayout.UpdateTime' && e.dur > 20000)) {
  const encl = traceEvents.filter(e => tids.has(e.pid + ':' + e.tid) && e.ph === 'X' && e.ts <= f.ts && e.ts + e.dur >= f.ts + f.dur && e !== f)
  console.log(((f.ts - t0) / 1000).toFixed(0), (f.dur / 1000).toFixed(0), encl.map(e => e.name + (e.args?.data?.url ? '(' + e.args.data.url.split('/').pop() + ':' + (e.args.data.lineNumber ?? '') + ')' : '') + (e.args?.data?.functionName ? '[' + e.args.data.functionName + ']' : '')).join(' > '))
}
