import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, inject } from 'vitest'
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from '../../scripts/lib/server.mjs'

const rand = () => Math.floor(Math.random() * 250) + 1

export const DESKTOP = { width: 1366, height: 900 }
export const PHONE = { width: 390, height: 844 }

/** One Chromium per test file; each test opens pages in a fresh context (no shared storage). */
export function useBrowser() {
  let browser: Browser
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: TEST_BROWSER_PATH,
      args: CHROMIUM_ARGS,
    })
  })
  afterAll(async () => browser?.close())
  const baseURL = inject('baseURL')
  return {
    baseURL,
    async open(
      path = '/',
      options: {
        viewport?: typeof DESKTOP
        locale?: string
        javaScript?: boolean
        welcome?: boolean
        splash?: boolean
        reducedMotion?: boolean
        /** A page that loads a script of the test's own (Playwright's addScriptTag). */
        bypassCSP?: boolean
      } = {},
    ) {
      const context = await browser.newContext({
        baseURL,
        viewport: options.viewport ?? DESKTOP,
        locale: options.locale ?? 'en-GB',
        javaScriptEnabled: options.javaScript ?? true,
        reducedMotion: options.reducedMotion ? 'reduce' : 'no-preference',
        acceptDownloads: true,
        bypassCSP: options.bypassCSP ?? false,
        // each visitor its own address, so the per-IP form limit only meets the tests about it
        extraHTTPHeaders: { 'CF-Connecting-IP': `10.${rand()}.${rand()}.${rand()}` },
      })
      // The welcome popup would cover what other tests look at; its own tests ask for it.
      if (!options.welcome)
        await context.addInitScript(() => localStorage.setItem('welcome-popup-seen', '1'))
      // Likewise the splash that starts each visit.
      if (!options.splash)
        await context.addInitScript(() => sessionStorage.setItem('splash-seen', '1'))
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
      await page.goto(path)
      return Object.assign(page, { errors })
    },
  }
}

/** Resolves once the client bundle has run (menus, language links, eager islands). */
export async function hydrated(page: Page) {
  await page.waitForSelector('body[data-hydrated]', { state: 'attached' })
}

/** Brings an island into view and resolves once it has hydrated (islands wait for the viewport). */
export async function island(page: Page, name: string) {
  const marker = page.locator(`[data-island="${name}"]`).first()
  await hydrated(page)
  await marker.locator(':scope > *').first().scrollIntoViewIfNeeded()
  await page.waitForSelector(`[data-island="${name}"][data-hydrated="done"]`, { state: 'attached' })
  return marker
}
