import { describe, expect, inject, it } from 'vitest'

const base = inject('baseURL')
const YEAR = 'max-age=31536000'

async function headersOf(path: string) {
  const res = await fetch(base + path)
  await res.arrayBuffer()
  expect(res.status, path).toBe(200)
  return {
    cacheControl: res.headers.get('cache-control') ?? '',
    nosniff: res.headers.get('x-content-type-options'),
  }
}

/** The hashed script, stylesheet and fonts the home page loads, and files with stable names. */
async function homeAssets() {
  const html = await (await fetch(`${base}/?lang=ar`)).text()
  const script = html.match(/<script[^>]+src="(\/assets\/entry-[\w-]+\.js)"/)?.[1]
  const stylesheet = html.match(/<link rel="stylesheet" href="(\/assets\/[\w-]+\.css)"/)?.[1]
  const css = await (await fetch(base + stylesheet)).text()
  const fonts = [
    ...new Set([...css.matchAll(/url\((\/assets\/[\w-]+\.woff2)\)/g)].map((m) => m[1])),
  ]
  const image = html.match(/src="(\/images\/[\w/-]+\.webp)"/)?.[1]
  const card = html.match(/property="og:image" content="[^"]*?(\/og\/[\w/-]+\.jpg)"/)?.[1]
  return { script, stylesheet, fonts, image, card }
}

describe('cache headers of static files (public/_headers)', () => {
  it('serves the hashed script, stylesheet and fonts as immutable for a year, unsniffed', async () => {
    const { script, stylesheet, fonts } = await homeAssets()
    expect(script).toBeDefined()
    expect(stylesheet).toBeDefined()
    // Inter for Latin text, Noto Sans Arabic for Arabic
    expect(fonts.length).toBeGreaterThanOrEqual(2)
    for (const path of [script!, stylesheet!, ...fonts]) {
      const { cacheControl, nosniff } = await headersOf(path)
      expect(cacheControl, path).toContain(YEAR)
      expect(cacheControl, path).toContain('immutable')
      expect(nosniff, path).toBe('nosniff')
    }
  })

  it('revalidates the files whose names stay the same (images, icons, social cards)', async () => {
    const { image, card } = await homeAssets()
    expect(image).toBeDefined()
    expect(card).toBeDefined()
    for (const path of [image!, card!, '/favicon.ico', '/favicon.svg', '/icons/icon-192.png']) {
      const { cacheControl, nosniff } = await headersOf(path)
      expect(cacheControl, path).not.toContain('immutable')
      expect(cacheControl, path).not.toContain(YEAR)
      expect(nosniff, path).toBe('nosniff')
    }
  })

  it('never lets a page be kept as immutable', async () => {
    for (const path of ['/', '/?lang=ar']) {
      const { cacheControl, nosniff } = await headersOf(path)
      expect(cacheControl, path).not.toContain('immutable')
      expect(nosniff, path).toBe('nosniff')
    }
  })

  it('does not serve the _headers file itself', async () => {
    const res = await fetch(`${base}/_headers`)
    await res.arrayBuffer()
    expect(res.status).toBe(404)
  })
})
