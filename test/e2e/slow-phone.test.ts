import {
  chromium,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type Page,
} from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, inject, it, vi, type ExpectStatic } from 'vitest'
import en from '../../locales/en.json'
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from '../../scripts/lib/server.mjs'
import { fillPhoneArticle } from './article-form'
import { PHONE } from './browser'
import { query } from './d1'
import { signInStaff } from './staff'

// Issue 47: a phone whose scripts arrive seconds after the page. Whatever a person types, picks
// or ticks before the islands hydrate is still there after, in every field of every page with an
// island, public and desk, in English and Arabic; the counters and the preview start from it.
// And a form sent twice in a row (a double tap) stores one item.

// One Chromium for the file and a context per phone (its own address and cookies): the phones
// wait on their scripts and on the server, not on each other, so several go at once.
vi.setConfig({ maxConcurrency: 6 })

let browser: Browser
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: TEST_BROWSER_PATH, args: CHROMIUM_ARGS })
})
afterAll(() => browser?.close())

const rand = () => Math.floor(Math.random() * 250) + 1

async function phoneContext(): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: inject('baseURL'),
    viewport: PHONE,
    extraHTTPHeaders: { 'CF-Connecting-IP': `10.${rand()}.${rand()}.${rand()}` },
  })
  await context.addInitScript(() => {
    localStorage.setItem('welcome-popup-seen', '1')
    sessionStorage.setItem('splash-seen', '1')
  })
  return context
}

/** Runs `test` with a page of a fresh phone context, closed after it whatever happens. */
async function onPhone(test: (page: Page, context: BrowserContext) => Promise<void>) {
  const context = await phoneContext()
  try {
    await test(await context.newPage(), context)
  } finally {
    await context.close()
  }
}

/**
 * Every script of the site (its entry and the islands' chunks) held back until the test has
 * typed and `release()`s them: they come late however long the typing takes on a busy machine.
 * `hold()` holds them again, for the next page.
 */
async function lateScripts(page: Page) {
  let release = () => {}
  let scripts = Promise.resolve()
  const hold = () => {
    scripts = new Promise<void>((resolve) => (release = resolve))
  }
  hold()
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await scripts
    // a script of a page left meanwhile is not asked for any more
    await route.continue().catch(() => {})
  })
  return { hold, release: () => release() }
}

type Typed = { selector: string; kind: string; value: string }

/**
 * Types into every field a person can reach on the page, before its scripts have run: text,
 * textarea, select, checkbox, radio. Returns what each should still hold.
 */
async function typeEverywhere(page: Page, lang: string, expect: ExpectStatic): Promise<Typed[]> {
  const fields = await page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLElement>(
        ['main', 'footer']
          .flatMap((p) => ['input', 'textarea', 'select'].map((f) => `${p} ${f}`))
          .join(', '),
      ),
    ]
      .filter((el) => {
        const input = el as HTMLInputElement
        if (input.type === 'hidden' || input.type === 'file' || input.disabled) return false
        if (input.readOnly || input.tabIndex < 0) return false
        // what a person can see and reach (not the honeypot, not a closed dialog's)
        const box = el.getBoundingClientRect()
        const style = getComputedStyle(el)
        const label = el.closest('label')
        const shown = (e: Element) => e.getBoundingClientRect().width > 0
        return (
          (box.width > 0 || (label && shown(label))) &&
          style.visibility !== 'hidden' &&
          !el.closest('dialog:not([open]), [hidden], [aria-hidden=true]')
        )
      })
      .map((el, i) => {
        const input = el as HTMLInputElement
        // found again by what React keeps: its id, else its name
        const selector = el.id
          ? `[id="${el.id}"]`
          : `${el.tagName.toLowerCase()}[name="${input.name}"]`
        return { i, tag: el.tagName.toLowerCase(), type: input.type, name: input.name, selector }
      }),
  )
  expect(fields.length, 'fields to type in').toBeGreaterThan(0)
  const typed: Typed[] = []
  const radios = new Set<string>()
  for (const f of fields) {
    const selector = f.selector
    const el = page.locator(selector)
    if (f.tag === 'select') {
      const options = await el
        .locator('option:not([disabled])')
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))
      const value = options.at(-1)!
      await el.selectOption(value)
      typed.push({ selector, kind: 'value', value })
    } else if (f.type === 'checkbox') {
      const was = await el.isChecked()
      await el.setChecked(!was, { force: true })
      typed.push({ selector, kind: 'checked', value: String(!was) })
    } else if (f.type === 'radio') {
      if (radios.has(f.name)) continue
      radios.add(f.name)
      // the last choice of the group: never the one it starts with
      const group = page.locator(`main input[type=radio][name="${f.name}"]`)
      const last = group.last()
      await last.check({ force: true })
      const value = (await last.getAttribute('value'))!
      typed.push({
        selector: `main input[type=radio][name="${f.name}"]:checked`,
        kind: 'radio',
        value,
      })
    } else {
      const value =
        f.type === 'email'
          ? `early-${f.i}@example.org`
          : f.type === 'number'
            ? '42'
            : f.type === 'url'
              ? 'https://example.org/early'
              : f.type === 'datetime-local'
                ? '2031-05-06T10:30'
                : f.type === 'date'
                  ? '2031-05-06'
                  : f.type === 'time'
                    ? '10:30'
                    : `${lang === 'ar' ? 'كُتب قبل السكربت' : 'Typed before the script'} ${f.i}, long enough to count for a field that wants fifty characters or more.`
      await el.fill(value)
      // as the field took it (a maxlength cuts it)
      typed.push({ selector, kind: 'value', value: await el.inputValue() })
    }
  }
  return typed
}

/** The page's islands have all hydrated, and the effects of their first render have run. */
async function hydrated(page: Page) {
  await page.waitForSelector('body[data-hydrated]', { state: 'attached', timeout: 30_000 })
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[data-island]')]
        .filter((el) => (el as HTMLElement).offsetParent !== null || el.firstElementChild)
        .every(
          (el) => el.getAttribute('data-hydrated') === 'done' || !el.hasAttribute('data-hydrate'),
        ),
    undefined,
    { timeout: 30_000 },
  )
  // An island is marked done when React is asked to hydrate it (client/entry.ts); React then
  // renders it in slices, one task each, commits, and runs its effects in a task of their own.
  // Chromium runs an idle callback only once no other task is waiting: after all of that.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)))
}

async function stillTyped(page: Page, typed: Typed[], expect: ExpectStatic) {
  for (const t of typed) {
    const el = page.locator(t.selector)
    if (t.kind === 'checked') expect(String(await el.isChecked()), t.selector).toBe(t.value)
    else if (t.kind === 'radio') expect(await el.getAttribute('value'), t.selector).toBe(t.value)
    else expect(await el.inputValue(), t.selector).toBe(t.value)
  }
}

/** Scrolls the page through, so every island (some hydrate near the viewport) gets its turn. */
async function scrollThrough(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 600) {
      window.scrollTo(0, y)
      await new Promise((r) => setTimeout(r, 50))
    }
    window.scrollTo(0, 0)
  })
}

// First, as it takes longest: its sizes are made while the other phones type.
describe.concurrent('a phone photo', () => {
  it(
    'saves with its article before its sizes are made, which the page serves once made',
    { timeout: 180_000 },
    async ({ expect }) => {
      // a phone's photo as a camera makes it: 4032×3024, fine detail (about 2.7 MB), where it was
      // taken; made while the staff member signs in
      const photoMade = sharp({
        create: {
          width: 4032,
          height: 3024,
          channels: 3,
          background: '#808080',
          noise: { type: 'gaussian', mean: 128, sigma: 40 },
        },
      })
        .blur(1.2)
        .jpeg({ quality: 88 })
        .withExifMerge({ IFD0: { Make: 'Phone', Model: 'Camera' }, IFD3: { GPSLatitudeRef: 'N' } })
        .toBuffer()
      await onPhone(async (page, context) => {
        const [photo] = await Promise.all([photoMade, signInStaff(page)])
        expect(photo.byteLength).toBeGreaterThan(2_000_000)
        const slug = `phone-photo-${crypto.randomUUID().slice(0, 6)}`
        await page.goto('/desk/content/article/new')
        await page.waitForSelector('body[data-hydrated]', { state: 'attached' })
        const c = en.desk.content
        await fillPhoneArticle(page, {
          slug,
          photo: { name: 'IMG_2041.jpg', buffer: photo },
          title: 'A photo from a phone',
          excerpt: 'Taken on a phone, saved from a phone.',
        })
        // by what stays while it says "Sending…"
        const publish = page.locator('main button[name=action][value=publish]')
        expect(await publish.textContent()).toBe(c.publish)
        const started = Date.now()
        // a double tap, 120 ms apart (in the page: Playwright's click waits for the navigation
        // the first one starts); the button is busy from the first, while the card is drawn too
        const seen = await publish.evaluate(async (b: HTMLButtonElement) => {
          const look = () => `${b.getAttribute('aria-busy')} ${b.textContent}`
          b.click()
          const first = look()
          await new Promise((r) => setTimeout(r, 120))
          b.click()
          return [first, look()]
        })
        expect(seen).toEqual([`true ${en.forms.sending}`, `true ${en.forms.sending}`])
        await page.waitForURL(/\/desk\/content\/article\/\d+/, { timeout: 60_000 })
        const answered = Date.now() - started
        console.log(`a 4032×3024 phone photo (${photo.byteLength} bytes): saved in ${answered} ms`)

        // one article, saved once
        const [{ name, revisions }] = await query<{ name: string; revisions: number }>(
          `SELECT json_extract(fields, '$.cover.name') AS name,
           (SELECT count(*) FROM content_revisions r WHERE r.item_id = i.id) AS revisions
           FROM content_items i WHERE slug = '${slug}'`,
        )
        expect(revisions).toBe(1)
        // its sizes, then the page's srcset names files that are those sizes (the poll's limit is
        // a hang guard: the local Images binding encodes six AVIFs in the server's process, half
        // a minute on a busy two-core machine while the file's other phones run)
        let made = 0
        await expect
          .poll(
            async () => {
              made = Date.now() - started
              return (
                await query<{ s: string }>(
                  `SELECT sizes_state AS s FROM media WHERE name = '${name}'`,
                )
              )[0]!.s
            },
            { timeout: 120_000, interval: 500 },
          )
          .toBe('done')
        console.log(`its sizes made ${made} ms after the save was sent`)
        const visitor = await context.newPage()
        await visitor.goto(`/blog/${slug}`)
        const srcset = (await visitor
          .locator('main picture source[type="image/avif"]')
          .first()
          .getAttribute('srcset'))!
        const urls = srcset.split(', ').map((s) => s.split(' ')[0]!)
        expect(urls).toHaveLength(6)
        for (const url of urls) {
          const res = await visitor.request.get(url)
          expect(res.headers()['content-type'], url).toBe('image/avif')
          expect(res.headers()['cache-control'], url).toContain('immutable')
        }
      })
    },
  )
})

const PUBLIC = ['/', '/contact', '/book', '/blog/shopify-seo-guide']

// Each phone in a context of its own, all at once: each waits on its own scripts and server.
describe.concurrent.each(['en', 'ar'])('a phone whose scripts come late, in %s', (lang) => {
  it.for(PUBLIC)(
    'keeps what was typed into %s before its islands hydrated',
    async (path, { expect }) => {
      await onPhone(async (page) => {
        const errors: string[] = []
        page.on('pageerror', (e) => errors.push(e.message))
        const scripts = await lateScripts(page)
        await page.goto(`${path}?lang=${lang}`, { waitUntil: 'domcontentloaded' })
        const typed = await typeEverywhere(page, lang, expect)
        // typed while the scripts were still on their way: none has run
        expect(await page.evaluate(() => document.body.hasAttribute('data-hydrated'))).toBe(false)
        scripts.release()
        await scrollThrough(page)
        await hydrated(page)
        await stillTyped(page, typed, expect)
        expect(errors).toEqual([])
      })
    },
  )

  it('keeps what was typed into a new article and a newsletter, with its counts and preview', async ({
    expect,
  }) => {
    await onPhone(async (page, context) => {
      await signInStaff(page)
      await context.addCookies([
        { name: 'preferred-language', value: lang, url: inject('baseURL') },
      ])
      // a newsletter to write in
      await page.goto('/desk/newsletters')
      await page.locator('main form[action="/desk/newsletters"] button[type=submit]').click()
      await page.waitForURL(/\/desk\/newsletters\/\d+/)
      const newsletter = new URL(page.url()).pathname

      const scripts = await lateScripts(page)
      for (const path of ['/desk/content/article/new', newsletter]) {
        scripts.hold()
        const errors: string[] = []
        const onError = (e: Error) => errors.push(e.message)
        const onConsole = (m: ConsoleMessage) => m.type() === 'error' && errors.push(m.text())
        page.on('pageerror', onError)
        page.on('console', onConsole)
        await page.goto(path, { waitUntil: 'domcontentloaded' })
        const typed = await typeEverywhere(page, lang, expect)
        expect(await page.evaluate(() => document.body.hasAttribute('data-hydrated'))).toBe(false)
        scripts.release()
        await hydrated(page)
        expect(errors).toEqual([])
        await stillTyped(page, typed, expect)
        // the count under a counted field and the Markdown's preview follow what was typed
        const body = page.locator('textarea[name$="body"]').first()
        const text = await body.inputValue()
        const word = lang === 'ar' ? 'كُتب قبل السكربت' : 'Typed before the script'
        expect(text).toContain(word)
        await expect
          .poll(() => page.locator('.prose').first().textContent(), { timeout: 10_000 })
          .toContain(word)
        const counted = page.locator('[id$="-count"]').first()
        const countedId = (await counted.getAttribute('id'))!.replace(/-count$/, '')
        const n = [...(await page.locator(`[id="${countedId}"]`).inputValue()).trim()].length
        expect(await counted.textContent()).toContain(String(n))
        expect(errors).toEqual([])
        page.off('pageerror', onError)
        page.off('console', onConsole)
      }
    })
  })
})

describe.concurrent('a double tap', () => {
  it('on a desk form posted by the browser saves one item, its button busy meanwhile', async ({
    expect,
  }) => {
    await onPhone(async (page) => {
      const staff = await signInStaff(page)
      await page.goto('/desk/newsletters')
      await page.waitForSelector('body[data-hydrated]', { state: 'attached' })
      const button = page.locator('main form[action="/desk/newsletters"] button[type=submit]')
      // a slow server: a post reaches it at once, its answer comes only once the second tap has
      // come (a post the page sent twice would reach it twice)
      let reached = () => {}
      const firstPost = new Promise<void>((resolve) => (reached = resolve))
      let answer = () => {}
      const answered = new Promise<void>((resolve) => (answer = resolve))
      await page.route('**/desk/newsletters', async (route) => {
        if (route.request().method() !== 'POST') return route.continue()
        const response = await route.fetch({ maxRedirects: 0 })
        reached()
        await answered
        // the answer to a post the page has dropped (a second one took its place) goes nowhere
        await route.fulfill({ response }).catch(() => {})
      })
      // what the page asks to learn that its first post is at the server (the test's own URL:
      // while a page's post is pending, Chromium runs no new evaluation in it)
      await page.route('**/__test/first-post', async (route) => {
        await firstPost
        await route.fulfill({ status: 204 })
      })
      // two taps, the second while the first post is at the server and its answer not yet come;
      // what the button says after each
      const seen = await button.evaluate(async (b: HTMLButtonElement) => {
        const look = () => [b.getAttribute('aria-busy'), b.textContent]
        b.click()
        const first = look()
        await fetch('/__test/first-post')
        b.click()
        return [first, look()]
      })
      expect(seen).toEqual([
        ['true', en.forms.sending],
        ['true', en.forms.sending],
      ])
      answer()
      await page.waitForURL(/\/desk\/newsletters\/\d+/)
      // the newsletters this staff member made (the file's other phones make theirs meanwhile)
      const [{ n }] = await query<{ n: number }>(
        `SELECT count(*) AS n FROM newsletter_issues WHERE created_by = '${staff}'`,
      )
      expect(n).toBe(1)
    })
  })
})
