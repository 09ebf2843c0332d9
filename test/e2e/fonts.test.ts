import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { PHONE, useBrowser } from './browser'

const { open } = useBrowser()

/** The font files a page downloads (each time it does), by name without the hash, with sizes. */
async function fontsOf(path: string) {
  const page = await open('about:blank', { viewport: PHONE })
  const fonts: Promise<[string, number]>[] = []
  page.on('response', (res) => {
    const name = new URL(res.url()).pathname.match(/^\/assets\/(.+)-[\w-]{8}\.woff2$/)?.[1]
    if (name) fonts.push(res.body().then((body) => [name, body.length]))
  })
  await page.goto(path, { waitUntil: 'networkidle' })
  await page.evaluate(() => document.fonts.ready)
  return { page, fonts: await Promise.all(fonts) }
}

/** The fonts Chromium drew an element's text with: family names, web fonts marked. */
async function drawnWith(page: Page, selector: string) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('DOM.enable')
  await cdp.send('CSS.enable')
  const { root } = await cdp.send('DOM.getDocument')
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector })
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId })
  return fonts.map((f) => `${f.familyName}${f.isCustomFont ? '' : ' (system)'}`)
}

describe('fonts', () => {
  it('an English page downloads only the Latin face', async () => {
    const { fonts } = await fontsOf('/')
    expect(fonts.map(([name]) => name)).toEqual(['inter-latin-wght-normal'])
  })

  it('an Arabic page downloads the Latin face and one Arabic file, 90 KiB in all', async () => {
    const { fonts } = await fontsOf('/?lang=ar')
    // two @font-face rules name the Arabic file; it is still fetched once
    expect(fonts.map(([name]) => name).sort()).toEqual([
      'inter-latin-wght-normal',
      'noto-sans-arabic-arabic-wght-400-700',
    ])
    const total = fonts.reduce((sum, [, size]) => sum + size, 0)
    expect(total).toBeLessThan(90 * 1024)
  })

  it('draws Arabic text in Noto Sans Arabic, with bold headings from the font itself', async () => {
    const { page } = await fontsOf('/?lang=ar')
    // the heading and the text under it: Arabic in Noto Sans Arabic, Latin words and digits in
    // Inter, nothing from the system's fonts
    for (const selector of ['h1', 'main p'])
      expect((await drawnWith(page, selector)).sort(), selector).toEqual([
        'Inter',
        'Noto Sans Arabic',
      ])
    expect(Number(await page.$eval('h1', (h) => getComputedStyle(h).fontWeight))).toBeGreaterThan(
      600,
    )
    // The face itself has the bold: with synthesis off, bold text is still wider than regular.
    // 500 is drawn as 400, 600 and 800 as 700, as with the static faces before.
    const widths = await page.evaluate(() =>
      [400, 500, 600, 700, 800].map((weight) => {
        const span = document.createElement('span')
        span.textContent = 'ارتقبنشاطكالتجاري' // Arabic letters only: spaces are Inter's
        span.style.fontWeight = String(weight)
        span.style.fontSynthesis = 'none'
        document.body.append(span)
        const width = span.getBoundingClientRect().width
        span.remove()
        return width
      }),
    )
    const [w400, w500, w600, w700, w800] = widths
    expect(w700 / w400).toBeGreaterThan(1.05)
    expect(w500).toBe(w400)
    expect([w600, w800]).toEqual([w700, w700])
  })
})
