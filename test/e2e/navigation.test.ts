import { describe, expect, it } from 'vitest'
import { hydrated, PHONE, useBrowser } from './browser'

const { open } = useBrowser()

describe('navigation bar and footer', () => {
  it('links every main item of the bar to its page', async () => {
    const page = await open('/')
    const nav = page.getByRole('navigation', { name: 'Main navigation' })
    for (const [name, path] of [
      ['Home', '/'],
      ['About', '/about'],
      ['Portfolio', '/portfolio'],
      ['Pricing', '/pricing'],
      ['Blog', '/blog'],
      ['FAQ', '/faq'],
      ['Contact', '/contact'],
    ]) {
      expect(await nav.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(path)
    }
    expect(await page.getByRole('link', { name: 'Sign In' }).first().getAttribute('href')).toBe(
      '/auth',
    )
    expect(await page.getByRole('link', { name: 'Get Started' }).first().getAttribute('href')).toBe(
      '/contact',
    )
    await page.context().close()
  })

  it('opens the Services dropdown with its six sub-items, by mouse and keyboard, and closes on Escape', async () => {
    const page = await open('/')
    await hydrated(page)
    const nav = page.getByRole('navigation', { name: 'Main navigation' })
    const toggle = nav.locator('summary', { hasText: 'Services' })
    const amazon = nav.getByRole('link', { name: 'Amazon Marketing' })
    expect(await amazon.isVisible()).toBe(false)
    await toggle.click()
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    for (const name of [
      'Amazon Marketing',
      'Shopify Services',
      'Social Media Marketing',
      'Email Marketing',
      'GMB Optimization',
      'Web Development',
    ])
      expect(await nav.getByRole('link', { name }).isVisible(), name).toBe(true)
    await page.keyboard.press('Escape')
    expect(await amazon.isVisible()).toBe(false)
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    // keyboard: focus the toggle and open it with Enter
    await toggle.focus()
    await page.keyboard.press('Enter')
    expect(await amazon.isVisible()).toBe(true)
    await amazon.click()
    await page.waitForURL('**/services/amazon')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Amazon Marketing')
    await page.context().close()
  })

  it('mirrors everything in a collapsible mobile menu', async () => {
    const page = await open('/', { viewport: PHONE })
    await hydrated(page)
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).isVisible()).toBe(false)
    const toggle = page.locator('summary', { hasText: 'Menu' })
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    await toggle.click()
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    const menu = page.getByRole('navigation', { name: 'Mobile navigation' })
    for (const name of [
      'Home',
      'About',
      'Services',
      'Portfolio',
      'Pricing',
      'Blog',
      'FAQ',
      'Contact',
      'Amazon Marketing',
      'Web Development',
    ])
      expect(await menu.getByRole('link', { name, exact: true }).isVisible(), name).toBe(true)
    expect(await page.getByRole('link', { name: 'Español' }).last().isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: 'Sign In' }).last().isVisible()).toBe(true)
    await page.keyboard.press('Escape')
    expect(await menu.isVisible()).toBe(false)
    await page.context().close()
  })

  it('fits the desktop bar on a 1280 px screen in every language', async () => {
    for (const lang of ['en', 'es', 'fr', 'de', 'ar', 'pt']) {
      const page = await open(`/?lang=${lang}`, { viewport: { width: 1280, height: 800 } })
      const [scrollWidth, width] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        innerWidth,
      ])
      expect(scrollWidth, lang).toBeLessThanOrEqual(width)
      const cta = (await page
        .locator('header a[href="/contact"].btn-primary')
        .first()
        .boundingBox())!
      expect(cta.x, lang).toBeGreaterThanOrEqual(0)
      expect(cta.x + cta.width, lang).toBeLessThanOrEqual(width)
      expect(cta.height, `${lang}: one line`).toBeLessThan(48)
      await page.context().close()
    }
  })

  it('has the footer menus, contact details, badges and the current year', async () => {
    const page = await open('/about')
    const footer = page.locator('footer')
    for (const [name, href] of [
      ['Home', '/'],
      ['Services', '/services'],
      ['FAQ', '/faq'],
      ['Privacy Policy', '/privacy-policy'],
      ['Terms of Service', '/terms-of-service'],
      ['Refund Policy', '/refund-policy'],
    ])
      expect(await footer.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(href)
    for (const social of ['Instagram', 'Facebook', 'Twitter', 'LinkedIn', 'TikTok'])
      expect(
        await footer.getByRole('link', { name: new RegExp(social) }).getAttribute('target'),
      ).toBe('_blank')
    const text = await footer.innerText()
    for (const s of [
      'Worldwide, based in Nigeria/UK',
      'SSL Secured',
      'Fiverr Verified Seller',
      'Privacy Protected',
      'Money Back Guarantee',
      'Stay Updated',
      'All rights reserved.',
    ])
      expect(text).toContain(s)
    // the year in UTC, as the page is made; a copy cached up to ten minutes before New Year's
    // midnight may still say the old one
    const years = [Date.now() - 10 * 60_000, Date.now()].map((t) => new Date(t).getUTCFullYear())
    expect(years.map((y) => `© ${y}`)).toContain(text.match(/© \d{4}/)?.[0])
    expect(await footer.locator('a[href^="mailto:"]').count()).toBe(1)
    expect(await footer.locator('a[href^="tel:"]').count()).toBe(1)
    await page.context().close()
  })

  it('follows every footer and navigation link to a page that exists', async () => {
    const page = await open('/')
    const hrefs = await page.$$eval('header a[href^="/"], footer a[href^="/"]', (as) => [
      ...new Set(as.map((a) => new URL((a as HTMLAnchorElement).href).pathname)),
    ])
    expect(hrefs.length).toBeGreaterThan(15)
    for (const href of hrefs) {
      const res = await page.request.get(href)
      expect(res.status(), href).toBe(200)
    }
    await page.context().close()
  })

  it('starts the next page at the top, showing progress while it loads', async () => {
    const page = await open('/')
    await hydrated(page)
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000)
    await page.locator('footer').getByRole('link', { name: 'About', exact: true }).click()
    await page.waitForURL('**/about')
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
    // A slow next page: the progress bar appears after the short delay, while the page is
    // still on its way. The next page is held back until the bar has shown (however long a busy
    // machine takes to draw it), so the bar is seen during the load, never after it.
    await hydrated(page)
    // Playwright cannot evaluate in a page whose navigation is pending, so the page records
    // itself when the bar appears, and tells the test (a binding works while it waits);
    // sessionStorage carries the record to the next page.
    let barShown = () => {}
    const shown = new Promise<void>((resolve) => (barShown = resolve))
    await page.exposeFunction('barShown', () => barShown())
    let shownWhileLoading = false
    await page.route('**/pricing', async (route) => {
      // a bar that never shows fails below; the page is not held for ever (a hang guard)
      let guard: ReturnType<typeof setTimeout> | undefined
      shownWhileLoading = await Promise.race([
        shown.then(() => true),
        new Promise<boolean>((r) => (guard = setTimeout(() => r(false), 60_000))),
      ])
      clearTimeout(guard)
      await route.continue()
    })
    const bar = page.locator('#nav-progress')
    expect(await bar.isVisible()).toBe(false)
    await page.evaluate(() => {
      const el = document.getElementById('nav-progress')!
      const clicked = performance.now()
      new MutationObserver(() => {
        if (!el.hidden && getComputedStyle(el).display !== 'none') {
          sessionStorage.setItem(
            'progress-after-ms',
            String(Math.round(performance.now() - clicked)),
          )
          void (window as unknown as { barShown: () => Promise<void> }).barShown()
        }
      }).observe(el, { attributes: true })
    })
    await page.locator('header').getByRole('link', { name: 'Pricing' }).click()
    await page.waitForURL('**/pricing')
    const shownAfter = Number(
      await page.evaluate(() => sessionStorage.getItem('progress-after-ms')),
    )
    expect(shownWhileLoading).toBe(true)
    // not at once: a page that comes quickly shows no bar
    expect(shownAfter).toBeGreaterThanOrEqual(100)
    expect(await page.locator('#nav-progress').isVisible()).toBe(false)
    await page.context().close()
  })

  it('keeps every page readable without JavaScript', async () => {
    const page = await open('/services/shopify', { javaScript: false })
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Shopify Services')
    // the FAQ accordion is <details>: it opens without scripts
    const faq = page.locator('#faqs details').first()
    await faq.locator('summary').click()
    expect(await faq.getAttribute('open')).not.toBeNull()
    await page.context().close()
  })
})
