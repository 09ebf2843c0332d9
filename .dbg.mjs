import { chromium } from 'playwright-core'
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
})
for (const [lang, vp] of [
  ['en', { width: 1366, height: 900 }],
  ['ar', { width: 390, height: 844 }],
]) {
  const page = await browser.newPage({ viewport: vp })
  page.on('console', (m) => console.log(m.type(), m.text()))
  await page.goto(`http://127.0.0.1:8787/?lang=${lang}`)
  await page.waitForTimeout(2600)
  await page.screenshot({ path: `/tmp/popup-${lang}.png` })
  await page.locator('#signup-name').fill('')
  await page.locator('#welcome-popup button[type=submit].btn-primary').click()
  await page.waitForTimeout(400)
  await page.screenshot({ path: `/tmp/popup-${lang}-missing.png` })
}
await browser.close()
