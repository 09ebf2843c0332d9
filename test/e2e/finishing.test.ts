import { describe, expect, it } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import { hydrated, island, useBrowser } from './browser'

const { open } = useBrowser()
const unique = (tag: string) => `${tag}-${crypto.randomUUID().slice(0, 8)}@example.org`
const fill = (text: string, values: Record<string, string>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, v), text)

/** The words, assets and pictures the specification names, as a visitor meets them. */
for (const [lang, t] of [
  ['en', en],
  ['ar', ar],
] as const) {
  const at = (path: string) => (lang === 'en' ? path : `${path}?lang=${lang}`)

  describe(`the specification's last words, icons and pictures (${lang})`, () => {
    it('heads the footer menu Quick Links and links the Fiverr badge to the profile', async () => {
      const page = await open(at('/about'))
      const footer = page.locator('footer')
      const menu = footer.getByRole('navigation', { name: t.footer.quick_links })
      expect(await menu.getByRole('heading').textContent()).toBe(t.footer.quick_links)
      expect(await menu.getByRole('link').count()).toBe(5)
      const fiverr = footer.getByRole('link', { name: t.footer.badges.fiverr })
      // FIVERR_URL of wrangler.toml
      expect(await fiverr.getAttribute('href')).toBe('https://www.fiverr.com/')
      expect(await fiverr.getAttribute('target')).toBe('_blank')
      expect(await fiverr.getAttribute('rel')).toContain('noopener')
      await page.context().close()
    })

    it("shows the hero's strategy-call button and success-stories link", async () => {
      const page = await open(at('/'))
      await hydrated(page)
      const hero = page.locator('main section').first()
      const call = hero.getByRole('link', { name: t.hero.cta_primary })
      const stories = hero.getByRole('link', { name: t.hero.cta_secondary })
      expect(await stories.getAttribute('href')).toBe('/portfolio')
      await call.click()
      const dialog = page.locator('#booking-dialog')
      await dialog.waitFor({ state: 'visible' })
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'hidden' })
      await stories.click()
      await page.waitForURL('**/portfolio*')
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(t.portfolio.title)
      await page.context().close()
    })

    it('thanks the visitor on the popup and newsletter cards', async () => {
      const page = await open(at('/faq'), { welcome: true })
      const dialog = page.locator('#welcome-popup')
      await dialog.waitFor({ state: 'visible', timeout: 15_000 })
      await page.waitForSelector('#welcome-popup [data-island][data-hydrated=done]', {
        state: 'attached',
      })
      await dialog.getByLabel(t.popup.name).fill('Thankful Reader')
      await dialog.getByLabel(t.popup.email).fill(unique(`thanks-${lang}`))
      await dialog.getByRole('button', { name: t.popup.submit }).click()
      const card = dialog.getByRole('status').filter({ hasText: t.popup.thanks_title })
      await card.waitFor()
      await page.keyboard.press('Escape')

      const box = page.locator('footer section[aria-labelledby=newsletter-title]')
      await island(page, 'newsletter-form')
      await box.getByLabel(t.footer.newsletter_email).fill(unique(`news-${lang}`))
      await box.getByRole('button', { name: t.footer.newsletter_submit }).click()
      await box.getByRole('status').filter({ hasText: t.footer.newsletter_thanks_title }).waitFor()
      if (lang === 'en') {
        expect(t.popup.thanks_title).toMatch(/^Thank you/)
        expect(t.footer.newsletter_thanks_title).toMatch(/^Thank you/)
      } else {
        expect(t.popup.thanks_title).toMatch(/^شكرًا/)
        expect(t.footer.newsletter_thanks_title).toMatch(/^شكرًا/)
      }
      await page.context().close()
    })

    it('stacks up to three notices at once, each gone after 4 s', async () => {
      const page = await open(at('/contact'))
      await hydrated(page)
      // The toasts' 4 s are the page's own timers: the test holds the page's clock and moves it
      // itself, so they are 4 s of the page's time however busy the machine is.
      await page.clock.install()
      await page.clock.pauseAt(Date.now() + 60_000)
      const toasts = page.locator('.notice-host:not(dialog *) .toasts .notice')
      const titles = () => toasts.locator('.notice-title').allTextContents()
      /** The connection drops or comes back, and the page has put up its toast for it. */
      const change = async (offline: boolean) => {
        const since = await page.evaluate(() => performance.now())
        await page.context().setOffline(offline)
        await page.waitForFunction(
          (since) =>
            [...document.querySelectorAll<HTMLElement>('.toasts .notice')].some(
              (el) => Number(el.dataset.at) >= since,
            ),
          since,
        )
        // the next one a moment later
        await page.clock.runFor(100)
      }
      // the connection drops, comes back, drops and comes back: four toasts, three shown
      for (const offline of [true, false, true]) await change(offline)
      expect(await titles()).toHaveLength(3)
      // destructive ones are announced assertively, the others politely
      expect(await page.locator('.toasts [role=alert] .notice').count()).toBe(2)
      await change(false)
      expect((await titles()).sort()).toEqual(
        [t.notices.offline_title, t.notices.online_title, t.notices.online_title].sort(),
      )
      // the one-at-a-time store is a separate place, still empty
      expect(await page.locator('.notice-host > [role] .notice').count()).toBe(0)
      // each is shown for 4 s of the page's time from when it came, and then goes
      const cameAt = (
        await toasts.evaluateAll((els) => els.map((el) => Number(el.dataset.at)))
      ).sort((a, b) => a - b)
      for (const [i, at] of cameAt.entries()) {
        const now = await page.evaluate(() => performance.now())
        await page.clock.runFor(at + 3999 - now)
        expect(await toasts.count()).toBe(cameAt.length - i)
        await page.clock.runFor(1)
        expect(await toasts.count()).toBe(cameAt.length - i - 1)
      }
      await page.context().close()
    })

    it('serves /favicon.ico, the touch icon and a manifest in the language', async () => {
      const page = await open(at('/pricing'))
      const href = (rel: string, extra = '') =>
        page.locator(`head link[rel="${rel}"]${extra}`).getAttribute('href')
      expect(await href('icon', '[sizes]')).toBe('/favicon.ico')
      const ico = await page.request.get('/favicon.ico')
      expect(ico.status()).toBe(200)
      expect(ico.headers()['content-type']).toMatch(/icon/)
      // ICO header: reserved 0, type 1, three images
      expect([...(await ico.body()).subarray(0, 6)]).toEqual([0, 0, 1, 0, 3, 0])

      const touch = await page.request.get((await href('apple-touch-icon'))!)
      expect(touch.headers()['content-type']).toBe('image/png')
      const png = await touch.body()
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([180, 180])

      const manifestUrl = (await href('manifest'))!
      expect(manifestUrl).toBe(`/manifest.webmanifest?lang=${lang}`)
      const res = await page.request.get(manifestUrl)
      expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/)
      const manifest = await res.json()
      expect(manifest).toMatchObject({
        name: t.meta.site_name,
        description: t.meta.home_description,
        lang,
        dir: lang === 'ar' ? 'rtl' : 'ltr',
      })
      for (const icon of manifest.icons as { src: string; type: string }[]) {
        const file = await page.request.get(icon.src)
        expect(file.status(), icon.src).toBe(200)
        expect(file.headers()['content-type']).toBe(icon.type)
      }
      await page.context().close()
    })

    it('pictures every case on the portfolio, sized and described', async () => {
      const page = await open(at('/portfolio'))
      const pictures = page.locator('main article img')
      expect(await pictures.count()).toBe(6)
      for (let i = 0; i < 6; i++) {
        const img = pictures.nth(i)
        const title = (await page.locator('main article h2').nth(i).textContent())!.trim()
        expect(await img.getAttribute('alt')).toBe(fill(t.portfolio.image_alt, { title }))
        expect(await img.getAttribute('width')).toBe('640')
        expect(await img.getAttribute('height')).toBe('400')
        // the first row is in the first screen; the rest wait until they come near it
        expect(await img.getAttribute('loading')).toBe(i < 2 ? null : 'lazy')
      }
      const last = pictures.last()
      await last.scrollIntoViewIfNeeded()
      await page.waitForFunction(
        (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0,
        await last.elementHandle(),
      )
      await page.context().close()
    })

    it("pictures an article and gives it the article's own social card", async () => {
      const page = await open(at('/blog/email-marketing-automation'))
      const title = (await page.getByRole('heading', { level: 1 }).textContent())!
      const img = page.getByRole('img', { name: fill(t.blog.image_alt, { title }) }).first()
      expect(await img.getAttribute('src')).toBe(
        '/images/art/article-email-marketing-automation.svg',
      )
      await page.waitForFunction(
        (el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0,
        await img.elementHandle(),
      )
      const og = (await page.locator('meta[property="og:image"]').getAttribute('content'))!
      expect(new URL(og).pathname).toBe(`/og/blog/email-marketing-automation-${lang}.jpg`)
      const card = await page.request.get(new URL(og).pathname)
      expect(card.headers()['content-type']).toBe('image/jpeg')
      await page.context().close()
    })
  })
}
