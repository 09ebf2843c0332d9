import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, inject, it } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from '../../scripts/lib/server.mjs'
import { variantOf } from '../../worker/experiments/assign'
import { hydrated } from './browser'
import { query } from './d1'
import { claimSlot, radioValues } from './slot-claims'

// An experiment on the home hero's title (docs/experiments.md), as visitors meet it, in English
// and Arabic at once: one who accepts analytics and is in B gets B in the server's HTML, and no
// script ever changes it; their booking counts for B; one without consent gets A, uncounted.
//
// On a server of its own (test/setup/server.ts experimentsURL): an experiment asks every visitor
// of its page for consent and shows half of those who accept B, which no other file's visitors
// should meet.

const site = inject('experimentsURL')
const run = crypto.randomUUID().slice(0, 8)
const SEED = `e2e-hero-${run}`
const B = {
  en: `Grow past your best month, with a team on call (${run})`,
  ar: `تجاوز أفضل شهر لك مع فريق معك دائمًا (${run})`,
}
const LANGS = [
  ['en', en],
  ['ar', ar],
] as const
let experiment = 0

const sql = (text: string) => query(text, site)
const now = () => new Date().toISOString()
/** What a start or an end in the desk does too: every isolate reads the experiments again. */
const raiseGeneration = () =>
  sql(`INSERT INTO content_generations (tag, generation, changed_at)
       VALUES ('experiments', 1, '${now()}')
       ON CONFLICT (tag) DO UPDATE SET generation = generation + 1, changed_at = excluded.changed_at`)

/** The first h1's text in a page's HTML as the server sent it (the hero's title on home). */
const heroIn = (html: string) =>
  /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '')

/** The experiment's data points in the D1 copy of the analytics, of one language. */
const points = (event: 'exp_exposure' | 'exp_conversion', lang: string) =>
  sql(`SELECT json_extract(blobs, '$[10]') AS variant, json_extract(blobs, '$[4]') AS referrer
       FROM dev_analytics WHERE index1 = '${event}' AND json_extract(blobs, '$[9]') = '${experiment}'
       AND json_extract(blobs, '$[1]') = '${lang}' ORDER BY id`) as Promise<
    { variant: string; referrer: string }[]
  >

/**
 * A visitor's browser: the test's Chromium says `HeadlessChrome`, and Node's fetch `node`, both
 * automated clients to isbot, which the experiments show A and never count (visitor.ts).
 */
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'

/** An id (as the site makes them) that the seed puts in B. */
function idInB() {
  for (;;) {
    const id = crypto.randomUUID().replaceAll('-', '').slice(0, 22)
    if (variantOf(SEED, 50, id) === 'B') return id
  }
}

let browser: Browser

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: TEST_BROWSER_PATH, args: CHROMIUM_ARGS })
  await sql(`INSERT INTO experiments (target, seed, split_b, goal, texts, status, created_by, started_at)
             VALUES ('home.hero_title', '${SEED}', 50, 'booking', '${JSON.stringify(B)}', 'running',
             'e2e', '${now()}')`)
  ;[{ id: experiment }] = (await sql(`SELECT id FROM experiments WHERE seed = '${SEED}'`)) as {
    id: number
  }[]
  await raiseGeneration()
  // The server's isolate reads the generations again within 10 s (content/generations.ts): until
  // then it shows A to everyone. Asked as a counted visitor in B whose exposure is on record
  // already (its cookie `exp-<id>`, experiments/visitor.ts), so that asking counts nothing.
  const cookie = `tracking-consent=granted; visitor-id=${idInB()}; exp-${experiment}=${Math.floor(Date.now() / 1000)}.en`
  const deadline = Date.now() + 60_000
  while (
    heroIn(
      await (
        await fetch(`${site}/?lang=en`, { headers: { Cookie: cookie, 'User-Agent': CHROME } })
      ).text(),
    ) !== B.en
  ) {
    if (Date.now() > deadline) throw new Error('the server never showed B to a visitor in B')
    await new Promise((r) => setTimeout(r, 250))
  }
})

afterAll(async () => {
  // ended, so that no later visitor of this server is shown B
  if (experiment) {
    await sql(
      `UPDATE experiments SET status = 'archived', ended_at = '${now()}' WHERE id = ${experiment}`,
    )
    await raiseGeneration()
  }
  await browser?.close()
})

/**
 * A visitor, whose pages record the hero's title at every change made to it from the first
 * byte: a MutationObserver on the document, installed before the page's HTML is parsed.
 */
async function visitor(lang: string) {
  const context = await browser.newContext({
    baseURL: site,
    viewport: { width: 1366, height: 900 },
    userAgent: CHROME,
    extraHTTPHeaders: {
      'CF-Connecting-IP': `10.60.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    },
  })
  await context.addInitScript(() => {
    localStorage.setItem('welcome-popup-seen', '1')
    sessionStorage.setItem('splash-seen', '1')
    // every text the title held, mutation by mutation: what a text node held before it was
    // changed, what each node put into the title held, and the title as the batch left it (a
    // change and its undoing in one task are two mutations, and both are seen)
    const texts: string[] = []
    Object.assign(window, { heroTexts: texts })
    let title: Element | null = null
    new MutationObserver((mutations) => {
      if (title && !title.isConnected) texts.push('(the title was taken out)')
      const h1 = document.querySelector('main h1')
      if (!h1) return
      title = h1
      let touched = false
      for (const m of mutations) {
        if (!h1.contains(m.target)) {
          // the title itself (or what holds it) put in by the parser or a script
          if ([...m.addedNodes].some((n) => n.contains(h1))) touched = true
          continue
        }
        touched = true
        if (m.type === 'characterData' && m.oldValue !== null) texts.push(m.oldValue)
        for (const n of m.addedNodes) texts.push(n.textContent ?? '')
      }
      if (touched) texts.push(h1.textContent ?? '')
    }).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      characterDataOldValue: true,
    })
  })
  const page = await context.newPage()
  // the language chosen by link, as the selector does: remembered for the booking's requests
  const response = await page.goto(`/?lang=${lang}`)
  return { context, page, html: (await response!.text()) as string }
}

const cookieOf = async (context: BrowserContext, name: string) =>
  (await context.cookies()).find((c) => c.name === name)?.value

/**
 * Every island on show hydrated (each brought into view, as a visitor scrolls to it; one in a
 * closed dialog waits for the dialog), then the browser idle.
 */
async function settled(page: Page) {
  await hydrated(page)
  for (const marker of await page.locator('[data-island]').all()) {
    const shown = await marker.evaluate((el) => {
      const box = el.firstElementChild ?? el
      box.scrollIntoView()
      return box.getClientRects().length > 0
    })
    if (shown) await marker.and(page.locator('[data-hydrated=done]')).waitFor({ state: 'attached' })
  }
  await page.waitForLoadState('networkidle')
  await page.evaluate(() => new Promise((idle) => requestIdleCallback(idle, { timeout: 10_000 })))
}

describe.concurrent('an experiment on the home hero’s title', () => {
  for (const [lang, t] of LANGS)
    it(`in ${lang}: a visitor who accepts analytics and is in B sees B from the server, never changed, and their booking counts for B; one without consent sees A, uncounted`, async ({
      expect,
    }) => {
      // A visitor accepts analytics in the banner, and the site gives them an id (api/consent.ts).
      // Ids are random, and half land in A: as in the real world, the visitors in A go their
      // way, and the test follows the first in B (each try 1 in 2: 30 all in A is 1 in 10⁹).
      let first: Awaited<ReturnType<typeof visitor>> | undefined
      for (let tries = 0; !first; tries++) {
        if (tries === 30) throw new Error('30 visitors in a row were put in A')
        const arrival = await visitor(lang)
        // before the answer, the page was everyone's: A
        expect(heroIn(arrival.html)).toBe(t.hero.title)
        await hydrated(arrival.page)
        await arrival.page.getByRole('button', { name: t.consent.accept }).click()
        await arrival.page.locator('#consent-banner').waitFor({ state: 'hidden' })
        const id = await cookieOf(arrival.context, 'visitor-id')
        expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/)
        if (variantOf(SEED, 50, id!) === 'B') first = arrival
        else await arrival.context.close()
      }
      const { context, page } = first

      // Their next page: B in the HTML the server sent, and their exposure counted once, for B.
      const response = await page.goto(`/?lang=${lang}`)
      expect(heroIn(await response!.text())).toBe(B[lang])
      await expect
        .poll(() => points('exp_exposure', lang))
        .toEqual([{ variant: 'B', referrer: '' }])

      // Never changed in the browser: from the first byte to every island hydrated, the title
      // was only ever B (the parser may add a text in pieces, as its bytes arrive: B's start).
      await settled(page)
      const texts = await page.evaluate(
        () => (window as unknown as { heroTexts: string[] }).heroTexts,
      )
      expect(texts.length).toBeGreaterThan(0)
      expect(texts.filter((text) => !B[lang].startsWith(text))).toEqual([])
      expect(texts.at(-1)).toBe(B[lang])
      expect(await page.locator('main h1').textContent()).toBe(B[lang])

      // They book a call from the hero's button, and the booking counts for B.
      await page
        .locator('main section')
        .first()
        .getByRole('link', { name: t.hero.cta_primary })
        .click()
      await page.locator('#booking-dialog').waitFor({ state: 'visible' })
      const frame = page.frameLocator('#booking-dialog iframe')
      await frame.locator('[data-island][data-hydrated=done]').waitFor({ state: 'attached' })
      const days = frame.getByRole('group').first().getByRole('button')
      // the second day's third time or a later one no other test claimed, else the next day's
      let slot = ''
      for (let day = 1; !slot; day++) {
        await days.nth(day).click()
        try {
          slot = claimSlot((await radioValues(frame.getByRole('radio'))).slice(2))
        } catch (err) {
          if (day >= (await days.count()) - 1) throw err
        }
      }
      await frame.locator(`label:has(input[value="${slot}"])`).click()
      await frame.getByLabel(t.booking.name).fill(`Variant B ${lang} ${run}`)
      await frame.getByLabel(t.booking.email).fill(`exp-${lang}-${run}@example.org`)
      await frame.getByRole('button', { name: t.booking.submit }).click()
      await frame.getByRole('heading', { name: t.booking.confirmed_title }).waitFor()
      // (written after the response)
      await expect
        .poll(() => points('exp_conversion', lang))
        .toEqual([{ variant: 'B', referrer: '' }])
      await context.close()

      // A second visitor, who does not answer the banner and then refuses: A, and no id.
      const second = await visitor(lang)
      expect(heroIn(second.html)).toBe(t.hero.title)
      await hydrated(second.page)
      await second.page.getByRole('button', { name: t.consent.reject }).click()
      await second.page.locator('#consent-banner').waitFor({ state: 'hidden' })
      const again = await second.page.goto(`/?lang=${lang}`)
      expect(heroIn(await again!.text())).toBe(t.hero.title)
      expect(await second.page.locator('main h1').textContent()).toBe(t.hero.title)
      expect(await cookieOf(second.context, 'visitor-id')).toBeUndefined()
      expect(await cookieOf(second.context, `exp-${experiment}`)).toBeUndefined()
      await second.context.close()
      // Not counted: the analytics are written after each response, so a counted visit made
      // after theirs (known by its referrer) is waited for; by then theirs would be there too.
      const marker = `after-${lang}-${run}.example`
      await fetch(`${site}/?lang=${lang}`, {
        headers: {
          Cookie: `tracking-consent=granted; visitor-id=${idInB()}`,
          Referer: `https://${marker}/`,
          'User-Agent': CHROME,
        },
      }).then((r) => r.arrayBuffer())
      await expect
        .poll(async () => (await points('exp_exposure', lang)).some((p) => p.referrer === marker))
        .toBe(true)
      expect((await points('exp_exposure', lang)).filter((p) => p.referrer !== marker)).toEqual([
        { variant: 'B', referrer: '' },
      ])
    })
})
