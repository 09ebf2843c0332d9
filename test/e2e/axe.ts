// The accessibility audit (axe-core) of the browser tests, split over three files so that
// the two cores share its hundred pages with the other browser tests.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Lang } from '../../client/lib/languages'
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from '../../scripts/lib/server.mjs'

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

/** One page of each template; the route tests cover that every path renders its template. */
const PAGES = [
  '/',
  '/about',
  '/services',
  '/services/amazon',
  '/portfolio',
  '/pricing',
  '/faq',
  '/contact',
  '/book',
  '/auth',
  '/auth?mode=magic',
  '/auth/confirm?token_hash=a-link-from-an-email-0000',
  '/blog',
  '/blog/shopify-seo-guide',
  '/privacy-policy',
  '/privacy/request',
  '/unsubscribe?token=a-link-that-does-not-work',
  '/no-such-page',
]

let browser: Browser
/** One Chromium per file that audits. */
function useAxeBrowser() {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: TEST_BROWSER_PATH,
      args: CHROMIUM_ARGS,
    })
  })
  afterAll(() => browser?.close())
}

type Violation = { id: string; impact: string; nodes: { target: string[] }[] }
export type Page = import('playwright-core').Page

/** A visitor's browser tab; axe is injected as a script, which the site's CSP rightly refuses,
 * so CSP is bypassed for the audit only. */
export async function visitor(
  viewport = { width: 1280, height: 900 },
  { popup = false, prepare }: { popup?: boolean; prepare?: (page: Page) => Promise<void> } = {},
) {
  const context = await browser.newContext({
    baseURL: inject('baseURL'),
    viewport,
    bypassCSP: true,
  })
  if (!popup) await context.addInitScript(() => localStorage.setItem('welcome-popup-seen', '1'))
  await context.addInitScript(() => sessionStorage.setItem('splash-seen', '1'))
  const page = await context.newPage()
  await prepare?.(page)
  return page
}

/** The serious and critical violations axe finds on the page at `path`, once it has hydrated. */
async function audit(page: Page, path: string, { popup = false } = {}) {
  await page.goto(path)
  await page.waitForSelector('body[data-hydrated]', { state: 'attached' })
  if (popup) {
    await page.locator('#welcome-popup').waitFor({ state: 'visible', timeout: 15_000 })
    await page.waitForSelector('#welcome-popup [data-hydrated=done]', { state: 'attached' })
  }
  return seriousViolations(page)
}

/**
 * The serious and critical violations axe finds on the page as it is now (a page reached by a
 * form's post, say). Its context must bypass CSP (`bypassCSP`), as `visitor`'s does.
 */
export async function seriousViolations(page: Page) {
  await page.addScriptTag({ content: axeSource })
  const violations: Violation[] = await page.evaluate(async () => {
    // @ts-expect-error injected above
    const result = await window.axe.run(document, {
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      // the violations are the result; passes and incomplete checks are not collected
      resultTypes: ['violations'],
    })
    return result.violations
  })
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    )
}

/**
 * axe's serious and critical findings on each path, seen with `page`'s cookies (a signed-in
 * staff member's desk), in a context of its own with the CSP bypassed for the audit only.
 */
export async function seriousViolationsOn(page: Page, paths: string[]) {
  const audit = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin, bypassCSP: true })
  await audit.addCookies(await page.context().cookies())
  const tab = await audit.newPage()
  const problems: string[] = []
  for (const path of paths) {
    const res = await tab.goto(path)
    expect(res!.status(), path).toBe(200)
    for (const found of await seriousViolations(tab)) problems.push(`${path}: ${found}`)
  }
  await audit.close()
  return problems
}

/** One fresh visitor's audit of one page. */
export async function auditAlone(path: string, ...options: Parameters<typeof visitor>) {
  const page = await visitor(...options)
  try {
    return await audit(page, path, { popup: options[1]?.popup })
  } finally {
    await page.context().close()
  }
}

// One visitor per language walks through every page (a new context per page costs as much as
// the audit's own work, on a suite that runs 100 of them).
export function auditEveryPage(langs: readonly Lang[]) {
  useAxeBrowser()
  describe.each(langs)('axe in %s', (lang) => {
    let page: Page
    beforeAll(async () => {
      page = await visitor()
    })
    afterAll(() => page?.context().close())
    it.each(PAGES)(`%s has no serious or critical violation`, async (path) => {
      expect(await audit(page, `${path}${path.includes('?') ? '&' : '?'}lang=${lang}`)).toEqual([])
    })
  })
}
