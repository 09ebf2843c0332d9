import { chromium } from 'playwright-core'
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
})
for (const [lang, vp, tag] of [
  ['en', { width: 1366, height: 900 }, 'd'],
  ['ar', { width: 390, height: 844 }, 'p'],
]) {
  const ctx = await browser.newContext({ viewport: vp, timezoneId: 'America/New_York' })
  await ctx.addInitScript(() => localStorage.setItem('welcome-popup-seen', '1'))
  const page = await ctx.newPage()
  page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()))
  page.on('pageerror', (e) => console.log('pageerror', e.message))
  await page.goto(`http://127.0.0.1:8787/?lang=${lang}`)
  await page.waitForTimeout(300)
  await page.screenshot({ path: `/tmp/splash-${tag}.png` })
  await page.waitForTimeout(2000)
  await page.screenshot({ path: `/tmp/float-${tag}.png` })
  await page.locator('#consult-widget summary').click()
  await page.waitForTimeout(200)
  await page.screenshot({ path: `/tmp/widget-${tag}.png` })
  await page.locator('#consult-widget a[data-booking]').click()
  await page.waitForTimeout(1500)
  await page.screenshot({ path: `/tmp/dialog-${tag}.png` })
}
await browser.close()
