// Screenshots of a page in a language and viewport, to look at what visitors see.
// Usage: node scripts/screenshot.mjs [path] [lang] [desktop|phone] [out.png] [--full]
// COOKIE='sb-access-token=…; sb-refresh-token=…' shows the page as that session sees it (the
// desk, the account page).
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './lib/server.mjs'

const [path = '/', lang = 'en', device = 'desktop', out = `/tmp/shot-${lang}-${device}.png`] =
  process.argv.slice(2).filter((a) => !a.startsWith('--'))
const full = process.argv.includes('--full')
const base = process.env.BASE_URL ?? 'http://127.0.0.1:8787'
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
const viewport = device === 'phone' ? { width: 390, height: 844 } : { width: 1366, height: 900 }
const context = await browser.newContext({ viewport, deviceScaleFactor: 1 })
if (process.env.COOKIE)
  await context.addCookies(
    process.env.COOKIE.split(/;\s*/).map((pair) => {
      const [name, ...value] = pair.split('=')
      return { name, value: value.join('='), url: base }
    }),
  )
// what a visitor sees once the splash and the welcome popup are behind them
await context.addInitScript(() => {
  sessionStorage.setItem('splash-seen', '1')
  localStorage.setItem('welcome-popup-seen', '1')
})
const page = await context.newPage()
await page.goto(`${base}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`, {
  waitUntil: 'networkidle',
})
const clipArg = process.argv.find((a) => a.startsWith('--from='))
if (clipArg) {
  const y = Number(clipArg.slice(7))
  await page.screenshot({
    path: out,
    fullPage: true,
    clip: { x: 0, y, width: viewport.width, height: viewport.height * 2 },
  })
} else await page.screenshot({ path: out, fullPage: full })
await browser.close()
console.log(out)
