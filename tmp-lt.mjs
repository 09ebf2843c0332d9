import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH, startServer } from './scripts/lib/server.mjs'
const { baseURL, stop } = await startServer({ persistTo: '.wrangler/bench-state' })
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
for (const variant of (process.argv[2] || 'splash,nosplash').split(',')) for (const lang of ['en', 'ar']) {
  const ctx = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, reducedMotion: variant === 'reduced' ? 'reduce' : 'no-preference' })
  await ctx.addInitScript((v) => { localStorage.setItem('welcome-popup-seen', '1'); if (v === 'nosplash') sessionStorage.setItem('splash-seen', '1');
    window.__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push([Math.round(e.startTime), Math.round(e.duration), e.name, JSON.stringify(e.attribution?.map(a=>a.containerSrc||a.name))]) }).observe({ type: 'longtask', buffered: true })
    window.__loaf = []; try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__loaf.push([Math.round(e.startTime), Math.round(e.duration), Math.round(e.blockingDuration), Math.round(e.styleAndLayoutStart? e.startTime+e.duration - e.styleAndLayoutStart:0), e.scripts.map(s => s.invoker + ' ' + Math.round(s.duration)).join('|')]) }).observe({ type: 'long-animation-frame', buffered: true }) } catch {}
  }, variant)
  const page = await ctx.newPage()
  const cdp = await ctx.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  await page.goto(baseURL + '/?lang=' + lang, { waitUntil: 'load' })
  await page.waitForTimeout(4000)
  const lt = await page.evaluate(() => window.__lt)
  const loaf = await page.evaluate(() => window.__loaf)
  console.log(variant, lang, 'TBT~', lt.reduce((a, [, d]) => a + Math.max(0, d - 50), 0))
  for (const l of loaf) console.log('  loaf', l.join(' '))
  await ctx.close()
}
await browser.close(); stop()
