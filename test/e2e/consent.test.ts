import { chromium, type Browser, type BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from '../../scripts/lib/server.mjs'

let browser: Browser
// the same build, served with tracker IDs configured (test/setup/server.ts)
const withTrackers = { baseURL: inject('trackersURL') }

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: TEST_BROWSER_PATH, args: CHROMIUM_ARGS })
})
afterAll(() => browser?.close())

/** A visitor whose requests to the trackers' hosts are answered by stubs and counted. */
async function visitor(baseURL: string) {
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: {
      'CF-Connecting-IP': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    },
  })
  await context.addInitScript(() => {
    localStorage.setItem('welcome-popup-seen', '1')
    sessionStorage.setItem('splash-seen', '1')
  })
  const trackerRequests: string[] = []
  await context.route(
    /googletagmanager\.com|facebook\.net|facebook\.com|google-analytics\.com/,
    (route) => {
      trackerRequests.push(route.request().url())
      return route.fulfill({ contentType: 'text/javascript', body: '/* tracker stub */' })
    },
  )
  return { context, trackerRequests }
}

const banner = (context: BrowserContext) => context.pages()[0].locator('#consent-banner')

describe('trackers and consent', () => {
  it('shows no banner and loads no tracker when none is configured', async () => {
    const { context, trackerRequests } = await visitor(inject('baseURL'))
    const page = await context.newPage()
    await page.goto('/')
    await page.waitForLoadState('networkidle')
    expect(await page.locator('#consent-banner').count()).toBe(0)
    expect(trackerRequests).toEqual([])
    await context.close()
  })

  it('asks first; Reject loads nothing and is remembered', async () => {
    const { context, trackerRequests } = await visitor(withTrackers.baseURL)
    const page = await context.newPage()
    await page.goto('/')
    await page.waitForSelector('body[data-hydrated]', { state: 'attached' })
    expect(await banner(context).isVisible()).toBe(true)
    const accept = page.getByRole('button', { name: 'Accept' })
    const reject = page.getByRole('button', { name: 'Reject' })
    // equally prominent: same size and look
    const [a, r] = [(await accept.boundingBox())!, (await reject.boundingBox())!]
    expect(Math.abs(a.width - r.width)).toBeLessThan(4)
    expect(await accept.getAttribute('class')).toBe(await reject.getAttribute('class'))
    expect(await page.locator('#consent-banner a[href="/privacy-policy"]').count()).toBe(1)
    await reject.click()
    await banner(context).waitFor({ state: 'hidden' })
    await page.reload()
    await page.waitForLoadState('networkidle')
    expect(await banner(context).isVisible()).toBe(false)
    expect(trackerRequests).toEqual([])
    await context.close()
  })

  it('Accept loads the trackers, which then get the page view and the leads; the choice can be changed', async () => {
    const { context, trackerRequests } = await visitor(withTrackers.baseURL)
    const page = await context.newPage()
    await page.goto('/faq')
    await page.waitForSelector('body[data-hydrated]', { state: 'attached' })
    await page.getByRole('button', { name: 'Accept' }).click()
    await page.waitForFunction(
      () =>
        document.querySelectorAll('script[src*="googletagmanager"], script[src*="fbevents"]')
          .length === 2,
    )
    await expect
      .poll(() =>
        trackerRequests.some((u) =>
          u.startsWith('https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ'),
        ),
      )
      .toBe(true)
    await expect
      .poll(() =>
        trackerRequests.some((u) => u.startsWith('https://connect.facebook.net/en_US/fbevents.js')),
      )
      .toBe(true)
    const seen = () =>
      page.evaluate(() => {
        const w = window as unknown as { dataLayer: unknown[]; fbq: { queue: unknown[][] } }
        // gtag() queues its arguments objects; the lead report also pushes a plain event object
        return {
          ga: w.dataLayer.map((a) =>
            Object.prototype.toString.call(a) === '[object Arguments]' ? [...(a as IArguments)] : a,
          ),
          fb: w.fbq.queue,
        }
      })
    const first = await seen()
    expect(first.ga).toContainEqual([
      'config',
      'G-ABC123XYZ',
      { page_title: await page.title(), page_location: page.url() },
    ])
    expect(first.fb).toContainEqual(['track', 'PageView'])

    // a lead goes to both
    await page.locator('#newsletter-email').scrollIntoViewIfNeeded()
    await page.waitForSelector('[data-island="newsletter-form"][data-hydrated=done]', {
      state: 'attached',
    })
    await page.locator('#newsletter-email').fill(`consent-${Date.now()}@example.org`)
    await page.locator('footer').getByRole('button', { name: 'Subscribe' }).click()
    await page.locator('footer [role=status]').waitFor()
    const after = await seen()
    expect(after.ga).toContainEqual(['event', 'generate_lead', { form: 'newsletter' }])
    expect(after.fb).toContainEqual(['track', 'Lead', { content_name: 'newsletter' }])

    // the next page loads them straight away; the footer link reopens the question
    trackerRequests.length = 0
    await page.goto('/pricing')
    await page.waitForLoadState('networkidle')
    await expect.poll(() => trackerRequests.length).toBeGreaterThanOrEqual(2)
    expect(await banner(context).isVisible()).toBe(false)
    await page.getByRole('link', { name: 'Cookie settings' }).click()
    expect(await banner(context).isVisible()).toBe(true)
    await page.getByRole('button', { name: 'Reject' }).click()
    await banner(context).waitFor({ state: 'hidden' })
    trackerRequests.length = 0
    await page.goto('/about')
    await page.waitForLoadState('networkidle')
    expect(trackerRequests).toEqual([])
    await context.close()
  })
})
