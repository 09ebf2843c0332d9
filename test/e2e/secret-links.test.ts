import { chromium, type Browser, type Request } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import en from '../../locales/en.json'
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from '../../scripts/lib/server.mjs'
import { DUMMY_TOKEN } from '../../scripts/lib/turnstile-standin.mjs'
import { TRACKERS } from '../setup/server'
import { mailTo } from './inbox'
import { claimSlot } from './slot-claims'

// The pages of e-mailed secrets, for a visitor who accepted the trackers (issue 55, finding 4):
// every request the browser makes is recorded, and none that leaves for another origin carries
// the page's secret: not in its address, not in its Referer, not in its body. The trackers are
// stand-ins that report as the real tags do, the page's address and its referrer, so a tag on
// the secret's page, or on the next page it leads to, would give the secret away.

const site = inject('trackersURL')
const origin = new URL(site).origin
const unique = (tag: string) => `${tag}-${crypto.randomUUID().slice(0, 8)}@example.org`
const ip = () => `10.55.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`

/** What the real tags send once loaded: a hit with the page's address and its referrer. */
const GTAG = `(() => {
  const hit = 'https://www.google-analytics.com/g/collect?v=2&tid=${TRACKERS.GA_MEASUREMENT_ID}&en=page_view'
  new Image().src = hit + '&dl=' + encodeURIComponent(location.href) + '&dr=' + encodeURIComponent(document.referrer)
})()`
const FBEVENTS = `(() => {
  const hit = 'https://www.facebook.com/tr/?id=${TRACKERS.META_PIXEL_ID}&ev=PageView'
  new Image().src = hit + '&dl=' + encodeURIComponent(location.href) + '&rl=' + encodeURIComponent(document.referrer)
})()`

let browser: Browser
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: TEST_BROWSER_PATH, args: CHROMIUM_ARGS })
})
afterAll(() => browser?.close())

/** A post to the trackers' site as its pages send one (JSON, or a form), from its own origin. */
async function post(path: string, body: Record<string, unknown>, form = false) {
  const res = await fetch(site + path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      Origin: origin,
      'CF-Connecting-IP': ip(),
    },
    body: form
      ? new URLSearchParams(body as Record<string, string>).toString()
      : JSON.stringify(body),
  })
  expect(res.status, `${path}: ${res.status}`).toBeLessThan(400)
  return res
}

/** The link of an e-mail's text part to `path` on the site. */
async function linkTo(to: string, path: string, subject?: RegExp) {
  const mail = await mailTo(to, subject)
  const found = mail.text?.match(new RegExp(`${site}${path.replace(/[?]/g, '\\$&')}[^\\s)]+`))
  expect(found, `a link to ${path} in "${mail.subject}"`).not.toBeNull()
  return found![0]
}

const captcha = { gotrue_meta_security: { captcha_token: DUMMY_TOKEN } }

/** Each e-mailed secret of the site, as the site e-mails it (its link, and the secret in it). */
const LINKS: Record<string, () => Promise<string>> = {
  async 'a sign-up to confirm'() {
    const email = unique('secret-optin')
    await post('/api/newsletter', { email, challengeToken: DUMMY_TOKEN })
    return linkTo(email, '/subscribe/confirm?token=')
  },
  async 'a newsletter to unsubscribe from'() {
    const email = unique('secret-unsub')
    await post('/api/newsletter', { email, challengeToken: DUMMY_TOKEN })
    const confirm = new URL(await linkTo(email, '/subscribe/confirm?token='))
    await post('/subscribe/confirm', { token: confirm.searchParams.get('token')! }, true)
    return linkTo(email, '/unsubscribe?token=', new RegExp(en.mail.welcome_subject))
  },
  async 'a copy of my data'() {
    const email = unique('secret-data')
    await post(
      '/privacy/request',
      { email, action: 'export', 'cf-turnstile-response': DUMMY_TOKEN },
      true,
    )
    return linkTo(email, '/privacy/data?token=')
  },
  async 'my booking'() {
    const email = unique('secret-booking')
    const { slots } = (await (await fetch(`${site}/api/bookings/slots`)).json()) as {
      slots: string[]
    }
    // a day and more ahead: clear of the minimum notice whatever the hour
    const slot = claimSlot(slots.filter((s) => Date.parse(s) > Date.now() + 25 * 3600_000))
    await post('/api/bookings', {
      name: 'Ada Lovelace',
      email,
      slot,
      timeZone: 'UTC',
      challengeToken: DUMMY_TOKEN,
    })
    return linkTo(email, '/book/manage?token=')
  },
  async 'a new password'() {
    const email = unique('secret-reset')
    await post('/auth/v1/signup', { email, password: 'first password 1', ...captcha })
    await post('/auth/v1/recover', { email, ...captcha })
    return linkTo(email, '/auth/reset?token=')
  },
  async 'a sign-in link'() {
    const email = unique('secret-magic')
    await post('/auth/v1/otp', { email, create_user: true, ...captcha })
    return linkTo(email, '/auth/confirm?token_hash=')
  },
  // a PKCE client's link (supabase-js, flowType 'pkce'): its code comes to the site's home page
  async 'a PKCE sign-in link'() {
    const email = unique('secret-pkce')
    await post('/auth/v1/otp', {
      email,
      create_user: true,
      code_challenge: 'k'.repeat(43),
      code_challenge_method: 's256',
      ...captcha,
    })
    return linkTo(email, '/?code=')
  },
}

/** The secret a link carries: its token, token hash or code. */
const secretOf = (link: string) => {
  const query = new URL(link).searchParams
  return query.get('token') ?? query.get('token_hash') ?? query.get('code')!
}

/**
 * Everything a request gives its destination: its address, its headers (the Referer among
 * them), its body. (A token's characters are the same whether a URL is encoded or not.)
 */
async function sent(request: Request) {
  const headers = await request.allHeaders()
  return [request.url(), JSON.stringify(headers), request.postData() ?? ''].join('\n')
}

describe('the pages of e-mailed secrets, trackers accepted', () => {
  it.each(Object.keys(LINKS))(
    '%s: no request to another origin carries the secret',
    async (name) => {
      const link = await LINKS[name]()
      const secret = secretOf(link)
      expect(secret.length).toBeGreaterThan(20)

      const context = await browser.newContext({
        extraHTTPHeaders: { 'CF-Connecting-IP': ip() },
        viewport: { width: 1366, height: 900 },
      })
      await context.addCookies([{ name: 'tracking-consent', value: 'granted', url: site }])
      await context.addInitScript(() => {
        localStorage.setItem('welcome-popup-seen', '1')
        sessionStorage.setItem('splash-seen', '1')
      })
      // every request to another origin, answered here: the trackers by their stand-ins
      const elsewhere: Request[] = []
      context.on('request', (request) => {
        if (new URL(request.url()).origin !== origin) elsewhere.push(request)
      })
      await context.route(
        (url) =>
          url.protocol.startsWith('http') && !['127.0.0.1', 'localhost'].includes(url.hostname),
        (route) => {
          const url = route.request().url()
          const body = url.includes('/gtag/js') ? GTAG : url.includes('fbevents') ? FBEVENTS : ''
          return route.fulfill({ contentType: 'text/javascript', body })
        },
      )
      const page = await context.newPage()
      await page.goto(link)
      await page.waitForSelector('body[data-hydrated]', { state: 'attached' })
      await page.waitForLoadState('networkidle')

      // on to another page of the site, whose trackers report the page they came from
      await page.locator('header nav a[href="/faq"]').first().click()
      await page.waitForURL((url) => url.pathname === '/faq')
      const hits = () => elsewhere.filter((r) => /\/g\/collect|facebook\.com\/tr/.test(r.url()))
      await expect
        .poll(() => hits().filter((r) => r.url().includes(encodeURIComponent('/faq'))).length, {
          timeout: 60_000,
        })
        .toBeGreaterThanOrEqual(2)

      const carrying = []
      for (const request of elsewhere)
        if ((await sent(request)).includes(secret)) carrying.push(request.url())
      expect(carrying).toEqual([])
      await context.close()
    },
  )
})
