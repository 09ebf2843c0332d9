import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, inject } from 'vitest'

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export const DESKTOP = { width: 1366, height: 900 }
export const PHONE = { width: 390, height: 844 }

/** One Chromium per test file; each test opens pages in a fresh context (no shared storage). */
export function useBrowser() {
  let browser: Browser
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    })
  })
  afterAll(async () => browser?.close())
  const baseURL = inject('baseURL')
  return {
    baseURL,
    async open(
      path = '/',
      options: { viewport?: typeof DESKTOP; locale?: string; javaScript?: boolean } = {},
    ) {
      const context = await browser.newContext({
        baseURL,
        viewport: options.viewport ?? DESKTOP,
        locale: options.locale ?? 'en-GB',
        javaScriptEnabled: options.javaScript ?? true,
      })
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
      await page.goto(path)
      return Object.assign(page, { errors })
    },
  }
}

/** Resolves once the client bundle has hydrated every island on the page. */
export async function hydrated(page: Page) {
  await page.waitForSelector('body[data-hydrated]', { state: 'attached' })
}
