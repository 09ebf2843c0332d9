import { chromium, type Browser, type Locator, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, inject, it, vi, type ExpectStatic } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from '../../scripts/lib/server.mjs'
import { seriousViolations } from './axe'
import { PHONE } from './browser'
import { query as d1 } from './d1'
import { mailTo } from './inbox'
import { claimSlot, radioValues } from './slot-claims'

// Issue 57, part 1: a visitor presses before the page's scripts have come, so the browser posts
// the form itself, without the challenge's token. The answer carries the challenge and what was
// typed; once its scripts run, the challenge is solved there and the form goes on by itself:
// the e-mail arrives (or the call is booked) with nothing typed again, and nothing is stored or
// sent twice. Without JavaScript the answer keeps what was typed and says JavaScript is needed.
// Every form that needs the challenge, in English and Arabic at 390 px.

/** Hang guard for every wait of a phone (a page, the late scripts, the send). */
const LATE = { timeout: 120_000 }

const DICTS = { en, ar }
type Lang = keyof typeof DICTS
type Dict = (typeof DICTS)[Lang]
const unique = (tag: string) => `${tag}-${crypto.randomUUID().slice(0, 8)}@example.org`
const rand = () => Math.floor(Math.random() * 250) + 1
const PASSWORD = 'correct horse 1'

// One Chromium for the file and a context per phone (its own address and cookies: the sign-up
// signs its phone in, and the per-IP form limit counts each phone's posts alone). A phone spends
// most of its time waiting on the server and its mail, so eight of them wait at once.
vi.setConfig({ maxConcurrency: 8 })

let browser: Browser
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: TEST_BROWSER_PATH, args: CHROMIUM_ARGS })
})
afterAll(() => browser?.close())

/**
 * A phone of its own (its own address, so the per-IP form limit meets nobody else's posts): its
 * scripts late, or JavaScript off. No script of the site (its entry, the islands', the
 * challenge's) comes until the test lets them (`release()`), once the visitor has pressed and
 * the answer has been read (`answerRead`): however long a busy machine takes to type or to
 * answer, the press and the answer come first. `popup`: the welcome popup may open; its page's
 * entry, which opens it, comes at once (its form's script does not).
 */
async function phone({ javaScript = true, popup = false, audit = false } = {}) {
  const context = await browser.newContext({
    baseURL: inject('baseURL'),
    viewport: PHONE,
    javaScriptEnabled: javaScript,
    // axe is injected as a script, which the site's CSP rightly refuses (test/e2e/axe.ts)
    bypassCSP: audit,
    extraHTTPHeaders: { 'CF-Connecting-IP': `10.${rand()}.${rand()}.${rand()}` },
  })
  // a hang guard for every wait of the phone: on a busy machine a page can take half a minute
  context.setDefaultTimeout(LATE.timeout)
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  if (javaScript) {
    await context.addInitScript((welcome) => {
      if (!welcome) localStorage.setItem('welcome-popup-seen', '1')
      sessionStorage.setItem('splash-seen', '1')
    }, popup)
    // `audit`: the site's scripts never come, and the page stays as a late phone first sees it
    if (audit) await context.route(/\/assets\/.*\.js$/, (route) => route.abort())
    else {
      // the entry of the popup's page (the first one it asks for) opens the popup
      let opener = popup
      await context.route(/\/assets\/.*\.js$/, async (route) => {
        const entry = /\/entry-[\w-]+\.js$/.test(route.request().url())
        if (opener && entry) opener = false
        else await released
        // a script of a page the press has left is not asked for any more
        await route.continue().catch(() => {})
      })
    }
  }
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  return Object.assign(page, { errors, scripts: javaScript, release })
}
type Phone = Awaited<ReturnType<typeof phone>>

/** The page's HTML is here, its scripts are not: what a press now sends, the browser sends. */
async function early(page: Phone, path: string, expect: ExpectStatic) {
  await page.goto(path, { waitUntil: 'domcontentloaded' })
  if (page.scripts)
    expect(await page.evaluate(() => document.body.hasAttribute('data-hydrated'))).toBe(false)
}

/**
 * The answer to the press has been read up to its own script, which says the form goes on by
 * itself once the site's scripts have come; they have not.
 */
async function answerRead(page: Page, t: Dict, expect: ExpectStatic) {
  await expect
    .poll(() => page.locator('[data-resume-note]').textContent(), LATE)
    .toBe(t.forms.resume_text)
  expect(await page.evaluate(() => document.body.hasAttribute('data-hydrated'))).toBe(false)
}

/**
 * D1, as the agency reads it: a read that meets the server's own write (eight phones at once
 * post to it) is asked again, a few times.
 */
async function query<T = Record<string, unknown>>(sql: string): Promise<T[]> {
  for (let attempt = 1; ; attempt++)
    try {
      return await d1<T>(sql)
    } catch (err) {
      if (attempt === 5) throw err
      await new Promise((r) => setTimeout(r, 250 * attempt))
    }
}

/** An account to send sign-in and reset links to (made through the service's own API). */
async function account(email: string) {
  const res = await fetch(`${inject('baseURL')}/auth/v1/signup`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'CF-Connecting-IP': `10.${rand()}.${rand()}.${rand()}`,
    },
    body: JSON.stringify({
      email,
      password: PASSWORD,
      gotrue_meta_security: { captcha_token: 'XXXX.DUMMY.TOKEN.XXXX' },
    }),
  })
  if (!res.ok) throw new Error(`no account for ${email}: ${res.status} ${await res.text()}`)
}

/** The e-mails written to `to`, by kind, whatever became of them. */
const outbox = (to: string) =>
  query<{ kind: string }>(`SELECT kind FROM mail_outbox WHERE to_address = '${to}' ORDER BY id`)

/**
 * A time at random from the whole list the page shows, past its first few (the minimum notice
 * may pass them meanwhile), that no other test claimed.
 */
async function someSlot(main: Locator) {
  const values = await radioValues(main.getByRole('radio'))
  return claimSlot(values.slice(Math.min(4, values.length - 1)), { random: true })
}

/** The part of a sentence after its `{{title}}` (the guide's), which the page fills in. */
const afterTitle = (text: string) => text.split('}}').at(-1)!.trim()

interface Flow {
  /** Opens the form's page, types into it and presses; returns what to check afterwards. */
  press: (page: Phone, t: Dict, lang: Lang, expect: ExpectStatic) => Promise<string>
  /** Once the answer's scripts have run: the form went on, once. */
  done: (page: Page, t: Dict, typed: string, expect: ExpectStatic) => Promise<void>
  /** Without JavaScript: the answer keeps what was typed, and says JavaScript is needed. */
  kept: (page: Page, t: Dict, typed: string, expect: ExpectStatic) => Promise<void>
}

const FLOWS: Record<string, Flow> = {
  'the footer’s newsletter box': {
    async press(page, t, lang, expect) {
      const email = unique(`early-news-${lang}`)
      await early(page, `/?lang=${lang}`, expect)
      await page.locator('footer').getByLabel(t.footer.newsletter_email).fill(email)
      await page.locator('footer').getByRole('button', { name: t.footer.newsletter_submit }).click()
      return email
    },
    async done(page, t, email, expect) {
      await page.getByRole('heading', { level: 1, name: t.notices.newsletter_title }).waitFor(LATE)
      await mailTo(email, new RegExp(t.mail.optin_subject))
      expect(
        await query(`SELECT status, unchecked FROM subscribers WHERE email = '${email}'`),
      ).toEqual([{ status: 'pending', unchecked: 0 }])
      expect(await outbox(email)).toEqual([{ kind: 'subscribe_confirm' }])
    },
    async kept(page, t, email, expect) {
      await page
        .getByRole('heading', { level: 1, name: t.notices.newsletter_unchecked_title })
        .waitFor()
      await page.getByText(t.notices.newsletter_unchecked_text).waitFor()
      expect(await page.locator('main').getByLabel(t.footer.newsletter_email).inputValue()).toBe(
        email,
      )
    },
  },

  'the welcome popup': {
    async press(page, t, lang, expect) {
      const email = unique(`early-popup-${lang}`)
      // the popup is opened by the page's script: it comes with it, its form's own script later
      await page.goto(`/?lang=${lang}`, { waitUntil: 'domcontentloaded' })
      const dialog = page.locator('#welcome-popup')
      await dialog.waitFor({ state: 'visible', ...LATE })
      expect(
        await dialog.locator('[data-island]').getAttribute('data-hydrated'),
        'the popup’s form before its script came',
      ).not.toBe('done')
      await dialog.getByLabel(t.popup.name).fill('Popup Person')
      await dialog.getByLabel(t.popup.email).fill(email)
      await dialog.getByRole('button', { name: t.popup.submit }).click()
      return email
    },
    async done(page, t, email, expect) {
      await page.getByRole('heading', { level: 1, name: t.notices.success_title }).waitFor(LATE)
      await mailTo(email, new RegExp(t.mail.optin_subject))
      expect(
        await query(
          `SELECT signup_form, unchecked, name FROM subscribers WHERE email = '${email}'`,
        ),
      ).toEqual([{ signup_form: 'welcome_popup', unchecked: 0, name: 'Popup Person' }])
      expect(await outbox(email)).toEqual([{ kind: 'subscribe_confirm' }])
    },
    // without JavaScript there is no popup to press
  } as Flow,

  'the free guide': {
    async press(page, t, lang, expect) {
      const email = unique(`early-guide-${lang}`)
      await early(page, `/?lang=${lang}`, expect)
      const form = page.locator('form[action="/api/guide-requests"]')
      await form.getByLabel(t.home.guide_name).fill('Guide Reader')
      await form.getByLabel(t.home.guide_email).fill(email)
      await form.getByRole('button', { name: t.home.guide_submit }).click()
      return email
    },
    async done(page, t, email, expect) {
      await page
        .getByText(afterTitle(t.notices.download_text), { exact: false })
        .first()
        .waitFor(LATE)
      await mailTo(email, /./)
      expect(
        await query(`SELECT name, unchecked FROM guide_requests WHERE email = '${email}'`),
      ).toEqual([{ name: 'Guide Reader', unchecked: 0 }])
      expect(await outbox(email)).toEqual([{ kind: 'guide' }])
      // the file itself, as before
      expect(
        await page.getByRole('link', { name: t.home.guide_download_again }).getAttribute('href'),
      ).toMatch(/^\/guides\//)
    },
    async kept(page, t, email, expect) {
      await page.getByText(afterTitle(t.notices.download_unchecked_text)).waitFor()
      const main = page.locator('main')
      expect(await main.getByLabel(t.home.guide_name).inputValue()).toBe('Guide Reader')
      expect(await main.getByLabel(t.home.guide_email).inputValue()).toBe(email)
      expect(
        await page.getByRole('link', { name: t.home.guide_download_again }).getAttribute('href'),
      ).toMatch(/^\/guides\//)
    },
  },

  'the booking': {
    async press(page, t, lang, expect) {
      const email = unique(`early-book-${lang}`)
      await early(page, `/book?lang=${lang}`, expect)
      const main = page.locator('main')
      const slot = await someSlot(main)
      await main.locator(`label:has(input[value="${slot}"])`).click()
      await main.getByLabel(t.booking.name).fill('Early Booker')
      await main.getByLabel(t.booking.email).fill(email)
      await main.getByLabel(t.booking.notes).fill('Etsy shop')
      await main.getByRole('button', { name: t.booking.submit }).click()
      return `${email} ${slot}`
    },
    async done(page, t, typed, expect) {
      const [email, slot] = typed.split(' ')
      await page.getByRole('heading', { level: 1, name: t.booking.confirmed_title }).waitFor(LATE)
      await mailTo(email, /./)
      expect(
        await query(
          `SELECT slot_start, name, notes, unchecked FROM bookings WHERE email = '${email}'`,
        ),
      ).toEqual([{ slot_start: slot, name: 'Early Booker', notes: 'Etsy shop', unchecked: 0 }])
      expect(await outbox(email)).toEqual([{ kind: 'booking_confirmation' }])
    },
    async kept(page, t, typed, expect) {
      const [email, slot] = typed.split(' ')
      await page.getByText(t.booking.not_booked_text).waitFor()
      const main = page.locator('main')
      expect(await main.getByLabel(t.booking.choose_time).inputValue()).toBe(slot)
      expect(await main.getByLabel(t.booking.name).inputValue()).toBe('Early Booker')
      expect(await main.getByLabel(t.booking.email).inputValue()).toBe(email)
      expect(await main.getByLabel(t.booking.notes).inputValue()).toBe('Etsy shop')
    },
  },

  'the data request': {
    async press(page, t, lang, expect) {
      const email = unique(`early-data-${lang}`)
      await early(page, `/privacy/request?lang=${lang}`, expect)
      await page.locator('main').getByLabel(t.privacy_request.email_label).fill(email)
      await page.getByLabel(t.privacy_request.erase).check()
      await page.getByRole('button', { name: t.privacy_request.submit }).click()
      return email
    },
    async done(page, t, email, expect) {
      await page
        .getByRole('heading', { level: 1, name: t.privacy_request.sent_title })
        .waitFor(LATE)
      await mailTo(email, new RegExp(t.mail.data_erase_subject))
      expect(await outbox(email)).toEqual([{ kind: 'data_request' }])
    },
    async kept(page, t, email, expect) {
      await page.getByText(t.privacy_request.needs_script).waitFor()
      expect(
        await page.locator('main').getByLabel(t.privacy_request.email_label).inputValue(),
      ).toBe(email)
      expect(await page.getByLabel(t.privacy_request.erase).isChecked()).toBe(true)
    },
  },

  'the sign-up': {
    async press(page, t, lang, expect) {
      const email = unique(`early-signup-${lang}`)
      await early(page, `/auth?mode=sign-up&lang=${lang}`, expect)
      await page.locator('main').getByLabel(t.auth.email).fill(email)
      await page.locator('main').getByLabel(t.auth.password).fill(PASSWORD)
      await page.locator('main form').getByRole('button', { name: t.auth.sign_up }).click()
      return email
    },
    async done(page, _t, email, expect) {
      // signed up and in (sign-ups are confirmed at once here): the home page
      await page.waitForURL((url) => url.pathname === '/', LATE)
      expect(await query(`SELECT email FROM auth_users WHERE email = '${email}'`)).toEqual([
        { email },
      ])
      expect(await page.locator('body').getAttribute('data-session')).toBe(email)
    },
    async kept(page, t, email, expect) {
      await page.getByText(t.auth.errors.challenge_needs_script).waitFor()
      const main = page.locator('main')
      expect(await main.getByLabel(t.auth.email).inputValue()).toBe(email)
      expect(await main.getByLabel(t.auth.password).inputValue()).toBe(PASSWORD)
      expect(await query(`SELECT email FROM auth_users WHERE email = '${email}'`)).toEqual([])
    },
  },

  'the sign-in link': {
    async press(page, t, lang, expect) {
      const email = unique(`early-magic-${lang}`)
      await account(email)
      await early(page, `/auth?mode=magic&lang=${lang}`, expect)
      await page.locator('main').getByLabel(t.auth.email).fill(email)
      await page.getByRole('button', { name: t.auth.magic_send }).click()
      return email
    },
    async done(page, t, email, expect) {
      await page.getByText(t.auth.magic_sent).waitFor(LATE)
      await mailTo(email, new RegExp(t.auth.magic_link_subject))
      expect(await outbox(email)).toEqual([{ kind: 'auth_magic_link' }])
    },
    async kept(page, t, email, expect) {
      await page.getByText(t.auth.errors.challenge_needs_script).waitFor()
      expect(await page.locator('main').getByLabel(t.auth.email).inputValue()).toBe(email)
    },
  },

  'the password reset': {
    async press(page, t, lang, expect) {
      const email = unique(`early-reset-${lang}`)
      await account(email)
      await early(page, `/auth?mode=forgot&lang=${lang}`, expect)
      await page.locator('main').getByLabel(t.auth.email).fill(email)
      await page.getByRole('button', { name: t.auth.send_link }).click()
      return email
    },
    async done(page, t, email, expect) {
      await page.getByText(t.auth.sent).waitFor(LATE)
      await mailTo(email, new RegExp(t.auth.recovery_subject))
      expect(await outbox(email)).toEqual([{ kind: 'auth_recovery' }])
    },
    async kept(page, t, email, expect) {
      await page.getByText(t.auth.errors.challenge_needs_script).waitFor()
      expect(await page.locator('main').getByLabel(t.auth.email).inputValue()).toBe(email)
    },
  },
}

// Each form in a phone of its own, all at once: each waits on its late scripts, not on the others.
describe.concurrent.each(['en', 'ar'] as const)('pressed before the scripts came (%s)', (lang) => {
  const t = DICTS[lang]
  it.for(Object.keys(FLOWS))('%s goes on by itself, once', async (name, { expect }) => {
    const flow = FLOWS[name]!
    const page = await phone({ popup: name === 'the welcome popup' })
    try {
      const typed = await flow.press(page, t, lang, expect)
      await answerRead(page, t, expect)
      // the scripts come now, to a page read and waiting for them
      page.release()
      await flow.done(page, t, typed, expect)
      expect(page.errors).toEqual([])
    } finally {
      await page.context().close()
    }
  })
})

describe.concurrent.each(['en', 'ar'] as const)('without JavaScript (%s)', (lang) => {
  const t = DICTS[lang]
  const withForm = Object.keys(FLOWS).filter((name) => FLOWS[name]!.kept)
  it.for(withForm)(
    '%s keeps what was typed and says JavaScript is needed',
    async (name, { expect }) => {
      const flow = FLOWS[name]!
      const page = await phone({ javaScript: false })
      try {
        // no scripts to wait for: the same presses, which the browser posts itself
        const typed = await flow.press(page, t, lang, expect)
        await flow.kept(page, t, typed, expect)
        // nothing was e-mailed
        const email = typed.split(' ')[0]!
        expect(await outbox(email)).toEqual([])
      } finally {
        await page.context().close()
      }
    },
  )
})

describe.concurrent.each(['en', 'ar'] as const)('axe on the answers, at 390 px (%s)', (lang) => {
  const t = DICTS[lang]
  const withForm = Object.keys(FLOWS).filter((name) => FLOWS[name]!.kept)
  it('finds no serious or critical violation on any, as a phone sees it before its scripts', async ({
    expect,
  }) => {
    // one phone walks through them all (seven posts, under the per-IP limit of ten a minute)
    const page = await phone({ audit: true })
    try {
      const found: Record<string, string[]> = {}
      for (const name of withForm) {
        await FLOWS[name]!.press(page, t, lang, expect)
        // the page's own script has said it goes on by itself, the site's scripts still to come
        await answerRead(page, t, expect)
        found[name] = await seriousViolations(page)
      }
      expect(found).toEqual(Object.fromEntries(withForm.map((name) => [name, []])))
    } finally {
      await page.context().close()
    }
  })
})
