import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH, startServer } from './scripts/lib/server.mjs'
const { baseURL, stop } = await startServer({ persistTo: '.wrangler/bench-state' })
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
for (const lang of ['en', 'ar']) {
  const ctx = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, javaScriptEnabled: true })
  await ctx.addInitScript(() => { localStorage.setItem('welcome-popup-seen', '1'); sessionStorage.setItem('splash-seen', '1') })
  const page = await ctx.newPage()
  await page.goto(baseURL + (process.argv[2] || '/') + '?lang=' + lang, { waitUntil: 'networkidle' })
  await page.waitForTimeout(1000)
  const res = await page.evaluate(() => {
    let size = 16
    const relayout = () => { size += 0.01; document.documentElement.style.fontSize = size + 'px'; const t = performance.now(); document.body.offsetHeight; return performance.now() - t }
    const median = (f) => { const xs = []; for (let i = 0; i < 9; i++) xs.push(f()); xs.sort((a, b) => a - b); return xs[4] }
    const base = median(relayout)
    const parts = [...document.querySelectorAll('body > header, main > *, body > footer, body > *')].filter((e, i, a) => a.indexOf(e) === i)
    const out = [['ALL', base.toFixed(1)]]
    for (const el of parts) {
      const d = el.style.display; el.style.display = 'none'
      const t = median(relayout); el.style.display = d
      out.push([el.tagName + '#' + (el.id || el.className.toString().slice(0, 30)) + ' ' + el.querySelectorAll('*').length, (base - t).toFixed(1)])
    }
    return out
  })
  console.log(lang); for (const r of res) if (Math.abs(+r[1]) > 0.3) console.log('  ', r[1].padStart(6), r[0])
  await ctx.close()
}
await browser.close(); stop()
