import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH, startServer } from './scripts/lib/server.mjs'
const { baseURL, stop } = await startServer({ persistTo: '.wrangler/bench-state' })
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
const variants = {
  base: '',
  kern0: '*{font-kerning:none !important}',
  calt0: '*{font-feature-settings: "calt" 0 !important}',
  liga0: '*{font-variant-ligatures: none !important}',
  speed: '*{text-rendering: optimizeSpeed !important}',
  base2: '',
  system: '*{font-family: Arial, sans-serif !important}',
  latinOnly: ':lang(ar) *{font-family: "Noto Sans Arabic", sans-serif !important}',
}
for (const lang of ['en', 'ar']) {
  const ctx = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true })
  await ctx.addInitScript(() => { localStorage.setItem('welcome-popup-seen', '1'); sessionStorage.setItem('splash-seen', '1') })
  const page = await ctx.newPage()
  await page.goto(baseURL + (process.argv[2] || '/') + '?lang=' + lang, { waitUntil: 'networkidle' })
  await page.waitForTimeout(1000)
  for (const [name, css] of Object.entries(variants)) {
    const r = await page.evaluate((css) => {
      const st = document.createElement('style'); st.textContent = css; document.head.append(st)
      let size = 16
      const relayout = () => { size += 0.01; document.documentElement.style.fontSize = size + 'px'; const t = performance.now(); document.body.offsetHeight; return performance.now() - t }
      const xs = []; for (let i = 0; i < 25; i++) xs.push(relayout()); xs.sort((a, b) => a - b)
      st.remove(); document.body.offsetHeight
      return xs[12].toFixed(1) + ' objects ' + document.querySelectorAll('*').length
    }, css)
    console.log(lang, name.padEnd(14), r)
  }
  await ctx.close()
}
await browser.close(); stop()
