import { describe, expect, it } from 'vitest'
import { hydrated, island, PHONE, useBrowser } from './browser'

const { open } = useBrowser()

describe('home page', () => {
  it('shows the hero claims and calls to action, with its three images preloaded and sized', async () => {
    const page = await open('/')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Scale Your Business to $100K+ Monthly Revenue',
    )
    expect(await page.locator('main').innerText()).toContain('$50M')
    // Preloaded as responsive WebP: the preload names the same candidates as the picture.
    const preloads = await page.$$eval('link[rel=preload][as=image]', (ls) =>
      ls.map((l) => l.getAttribute('imagesrcset')),
    )
    expect(preloads).toHaveLength(3)
    for (const srcset of preloads) {
      const img = page.locator(`img[srcset="${srcset}"]`)
      expect(Number(await img.getAttribute('width'))).toBeGreaterThan(0)
      expect(Number(await img.getAttribute('height'))).toBeGreaterThan(0)
      for (const candidate of srcset!.split(', ')) {
        const res = await page.request.get(candidate.split(' ')[0])
        expect(res.status()).toBe(200)
        expect(res.headers()['content-type']).toBe('image/webp')
      }
    }
    // The main picture is drawn (the others are desktop-only).
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('img[fetchpriority=high]')
      return img?.complete && img.naturalWidth > 0
    })
    const text = await page.locator('main').innerText()
    for (const s of [
      '500+',
      '$50M+',
      '98%',
      '4.9/5',
      'Analysis',
      'Strategy',
      'Implementation',
      'Scale',
    ])
      expect(text).toContain(s)
    await page.context().close()
  })

  it('scrolls to the services from the non-link "View Our Services" control', async () => {
    const page = await open('/')
    await hydrated(page)
    const control = page.getByRole('button', { name: 'View Our Services' })
    expect(await control.evaluate((el) => el.tagName)).toBe('BUTTON')
    await control.click()
    await page.waitForFunction(() => {
      const r = document.getElementById('core-services')!.getBoundingClientRect()
      return Math.abs(r.top) < 120
    })
    const cards = page.locator('#core-services')
    for (const href of [
      '/services/social-media-marketing',
      '/services/ecommerce-marketing',
      '/services/web-development',
      '/services/email-marketing',
      '/services/saas-strategy',
      '/services',
    ])
      expect(await cards.locator(`a[href="${href}"]`).count(), href).toBe(1)
    await page.context().close()
  })

  it('loops the testimonial carousel with buttons, keys and drag, without layout shift', async () => {
    const page = await open('/')
    await island(page, 'testimonial-carousel')
    const region = page.getByRole('region', { name: 'Client testimonials' })
    expect(await region.getByRole('group').count()).toBe(8)
    await region.scrollIntoViewIfNeeded()
    const box = () =>
      region
        .locator('.embla')
        .boundingBox()
        .then((b) => b!)
    const viewport = await box()
    /** The slide whose card sits at the start of the viewport, and how far off it is. */
    const atStart = () =>
      region.evaluate((el) => {
        const left = el.querySelector('.embla')!.getBoundingClientRect().left
        const cards = [...el.querySelectorAll('[role=group]')].map((g) => ({
          label: g.getAttribute('aria-label'),
          offset: g.querySelector('figure')!.getBoundingClientRect().left - left,
        }))
        return cards.sort((a, b) => Math.abs(a.offset) - Math.abs(b.offset))[0]
      })
    /** Until the carousel has moved: the slide at the start of the viewport is `label`. */
    const movedTo = (label: string) =>
      expect.poll(async () => (await atStart()).label, { timeout: 30_000 }).toBe(label)
    /**
     * Until the carousel has come to rest: its track and slides kept their place for five frames
     * in a row (it moves them every frame while it glides).
     */
    const settle = () =>
      region.evaluate(
        (el) =>
          new Promise<void>((resolve) => {
            let last = ''
            let still = 0
            const frame = () => {
              const place = [...el.querySelectorAll<HTMLElement>('.embla__container, [role=group]')]
                .map((e) => e.style.transform)
                .join()
              still = place === last ? still + 1 : 0
              last = place
              if (still >= 5) resolve()
              else requestAnimationFrame(frame)
            }
            requestAnimationFrame(frame)
          }),
      )
    const heightBefore = viewport.height
    expect((await atStart()).label).toBe('1 of 8')
    // previous from the first slide wraps around to the last: the loop
    await region.getByRole('button', { name: 'Previous' }).click()
    await movedTo('8 of 8')
    await region.getByRole('button', { name: 'Next' }).click()
    await movedTo('1 of 8')
    // keyboard: arrow keys on the focused carousel
    await region.focus()
    await page.keyboard.press('ArrowRight')
    await movedTo('2 of 8')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('ArrowLeft')
    await movedTo('8 of 8')
    // free drag: the track follows the pointer and rests where momentum leaves it
    await settle()
    const before = await atStart()
    Object.assign(viewport, await box())
    await page.mouse.move(viewport.x + viewport.width / 2, viewport.y + 60)
    await page.mouse.down()
    await page.mouse.move(viewport.x + viewport.width / 2 - 500, viewport.y + 60, { steps: 12 })
    await page.mouse.up()
    await settle()
    const after = await atStart()
    expect(after.label !== before.label || Math.abs(after.offset - before.offset) > 50).toBe(true)
    expect((await region.locator('.embla').boundingBox())!.height).toBeCloseTo(heightBefore, 0)
    await page.context().close()
  })

  it('selects the first guide by default and another on click', async () => {
    const page = await open('/')
    await island(page, 'guide-picker')
    const guides = page.locator('#guides')
    const cards = guides.getByRole('button', { pressed: true })
    expect(await cards.count()).toBe(1)
    expect(await cards.innerText()).toContain(
      '7 Biggest Mistakes That Keep Your Online Business Invisible',
    )
    expect(await guides.innerText()).toContain('15,300+ downloads')
    await guides.getByRole('button', { name: /Social Media Growth Accelerator Kit/ }).click()
    const selected = guides.getByRole('button', { pressed: true })
    expect(await selected.innerText()).toContain('Social Media Growth Accelerator Kit')
    expect(await selected.innerText()).toContain('8,300+ downloads')
    expect(await guides.getByRole('heading', { level: 3 }).textContent()).toBe(
      'Social Media Growth Accelerator Kit',
    )
    await page.context().close()
  })

  it('has no horizontal overflow on a phone, in English and Arabic', async () => {
    for (const lang of ['en', 'ar']) {
      const page = await open(`/?lang=${lang}`, { viewport: PHONE })
      const widths = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth])
      expect(widths[0], lang).toBeLessThanOrEqual(widths[1])
      await page.context().close()
    }
  })
})
