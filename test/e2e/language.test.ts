import { describe, expect, it } from 'vitest'
import { hydrated, PHONE, useBrowser } from './browser'

const { open } = useBrowser()

describe('language selector', () => {
  it('switches to Arabic right-to-left, stores the choice and keeps it across reloads and pages', async () => {
    const page = await open('/about')
    await hydrated(page)
    const before = await page.getByRole('heading', { level: 1 }).textContent()
    await page.locator('header summary', { hasText: 'English' }).click()
    // what SPEC §4 asks the switch to do before the page reloads in the new language
    await page.evaluate(() => {
      addEventListener('beforeunload', () => {
        sessionStorage.setItem(
          'seen',
          JSON.stringify({
            lang: document.documentElement.lang,
            dir: document.documentElement.dir,
            variable: document.documentElement.style.getPropertyValue('--language-switch'),
          }),
        )
      })
    })
    const pressed = Date.now()
    await Promise.all([
      page.waitForURL('**/about?lang=ar'),
      page.getByRole('link', { name: 'العربية' }).first().click(),
    ])
    const seen = JSON.parse((await page.evaluate(() => sessionStorage.getItem('seen'))) ?? '{}')
    expect(seen.lang).toBe('ar')
    expect(seen.dir).toBe('rtl')
    // the moment of this switch (the browser and the test read one machine's clock)
    expect(Number(seen.variable)).toBeGreaterThanOrEqual(pressed)
    expect(Number(seen.variable)).toBeLessThanOrEqual(Date.now())

    const html = page.locator('html')
    expect(await html.getAttribute('lang')).toBe('ar')
    expect(await html.getAttribute('dir')).toBe('rtl')
    const after = await page.getByRole('heading', { level: 1 }).textContent()
    expect(after).not.toBe(before)
    expect(await page.evaluate(() => localStorage.getItem('preferred-language'))).toBe('ar')

    await page.reload()
    expect(await html.getAttribute('lang')).toBe('ar')
    // a plain link to another page keeps the language (cookie)
    await page.goto('/pricing')
    expect(await html.getAttribute('lang')).toBe('ar')
    expect(await html.getAttribute('dir')).toBe('rtl')
    await page.context().close()
  })

  it('applies a saved preference from localStorage on first load', async () => {
    const page = await open('/faq', { locale: 'en-US' })
    await page.evaluate(() => localStorage.setItem('preferred-language', 'de'))
    await page.context().clearCookies()
    await Promise.all([page.waitForURL('**/faq?lang=de'), page.reload()])
    expect(await page.locator('html').getAttribute('lang')).toBe('de')
    await page.context().close()
  })

  it('follows the browser language when nothing is saved, and offers all six on a phone', async () => {
    const page = await open('/', { locale: 'es-ES', viewport: PHONE })
    expect(await page.locator('html').getAttribute('lang')).toBe('es')
    // the phone's menu button (the desktop menus are hidden at this width)
    await page.locator('header details:not(.relative) > summary').click()
    for (const name of ['English', 'Español', 'Français', 'Deutsch', 'العربية', 'Português'])
      expect(await page.getByRole('link', { name, exact: true }).last().isVisible(), name).toBe(
        true,
      )
    await page.context().close()
  })

  it('mirrors direction arrows in Arabic only, and turns the chevron of an opened answer', async () => {
    // Both are CSS transforms composed from the registered utility variables (uno.config.ts).
    const transformOf = (page: Awaited<ReturnType<typeof open>>, selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => getComputedStyle(el).transform)
    for (const [lang, expected] of [
      ['en', 'none'],
      ['ar', 'matrix(-1, 0, 0, 1, 0, 0)'],
    ]) {
      const page = await open(`/?lang=${lang}`)
      expect(await transformOf(page, 'main a[data-booking] svg'), lang).toBe(expected)
      await page.context().close()
    }
    const page = await open('/faq')
    const question = page.locator('main details').first()
    expect(await transformOf(page, 'main details svg')).toBe('none')
    await question.locator('summary').click()
    await expect
      .poll(() => transformOf(page, 'main details[open] svg'))
      .toBe('matrix(-1, 0, 0, -1, 0, 0)')
    await page.context().close()
  })
})
