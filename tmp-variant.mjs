import { chromium } from 'playwright-core'
import { readFileSync } from 'node:fs'
import { CHROMIUM_ARGS, CHROMIUM_PATH, startServer } from './scripts/lib/server.mjs'
const { baseURL, stop } = await startServer({ persistTo: '.wrangler/bench-state' })
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
const variants = JSON.parse(process.argv[3])
const path = process.argv[2] || '/'
const results = {}
for (let round = 0; round < 3; round++) for (const [name, css] of Object.entries(variants)) for (const lang of ['en', 'ar']) {
  const ctx = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true })
  await ctx.addInitScript(() => { localStorage.setItem('welcome-popup-seen', '1'); sessionStorage.setItem('splash-seen', '1') })
  const v = typeof css === 'string' ? { css } : css
  if (v.css) await ctx.route(/\.css$/, async (route) => { const r = await route.fetch(); route.fulfill({ response: r, body: (await r.text()) + v.css }) })
  if (v.head) await ctx.route(/\?lang=/, async (route) => { const r = await route.fetch(); let b = await r.text(); for (const [a, z] of v.head) b = b.replace(a, z); route.fulfill({ response: r, body: b }) })
  const page = await ctx.newPage()
  const cdp = await ctx.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  await browser.startTracing(page, { path: '/tmp/tv.json', categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink'] })
  await page.goto(baseURL + path + '?lang=' + lang, { waitUntil: 'load' })
  await page.waitForTimeout(2500)
  await browser.stopTracing()
  await ctx.close()
  const { traceEvents } = JSON.parse(readFileSync('/tmp/tv.json', 'utf8'))
  const tids = new Set(traceEvents.filter(e => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map(e => e.pid + ':' + e.tid))
  const ev = traceEvents.filter(e => tids.has(e.pid + ':' + e.tid) && e.ph === 'X' && e.dur)
  const sum = (n) => ev.filter(e => e.name === n).reduce((a, e) => a + e.dur, 0) / 1000
  const tasks = ev.filter(e => e.name === 'RunTask')
  const tbt = tasks.reduce((a, e) => a + Math.max(0, e.dur / 1000 - 50), 0)
  const k = name + ' ' + lang
  ;(results[k] ??= []).push([sum('Layout'), sum('UpdateLayoutTree'), sum('ParseHTML'), tbt])
}
for (const [k, rs] of Object.entries(results)) {
  const med = (i) => rs.map(r => r[i]).sort((a, b) => a - b)[1].toFixed(0)
  console.log(k.padEnd(16), 'layout', med(0), 'style', med(1), 'parse', med(2), 'tbt~', med(3))
}
await browser.close(); stop()
