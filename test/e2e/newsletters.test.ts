import type { FrameLocator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import en from '../../locales/en.json'
import { seriousViolationsOn } from './axe'
import { island, useBrowser } from './browser'
import { query } from './d1'
import { inboxURL, mailTo } from './inbox'
import { signInStaff } from './staff'

// The agency writes a newsletter in the desk, in English and Arabic, sees it in the e-mail's
// own layout, sends itself a test in each language, then sends it: every confirmed subscriber
// gets one e-mail, in their language, and the desk's counts match the inbox.

const { open } = useBrowser()
const n = en.desk.newsletters
const run = crypto.randomUUID().slice(0, 6)

/** Confirmed subscribers of this run, written as a confirmed sign-up leaves them. */
async function subscribers(language: string, count: number) {
  const emails = Array.from({ length: count }, (_, i) => `nl-${run}-${language}-${i}@example.org`)
  await query(
    `INSERT INTO subscribers (email, signup_form, language, consent_version, status, confirmed_at)
     VALUES ${emails.map((e) => `('${e}', 'newsletter', '${language}', '2026-11-01', 'confirmed', '2026-11-01T00:00:00Z')`).join(', ')}`,
  )
  return emails
}

/** What staff paste: an address and a word longer than a phone is wide. */
const LONG_URL =
  'https://example.com/blog/how-to-grow-your-amazon-store-with-sponsored-products-and-better-listings?utm_source=newsletter'
const LONG_WORD = 'Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenhersteller'

/** How far a document scrolls sideways (0: it fits its window). */
const sideways = (page: Page | FrameLocator) =>
  page
    .locator('html')
    .evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)

/** The e-mail laid out at a phone's width, 320 and 375 px: how far each scrolls sideways. */
async function onPhones(page: Page, html: string) {
  const out: number[] = []
  for (const width of [320, 375]) {
    await page.setViewportSize({ width, height: 700 })
    await page.setContent(html)
    out.push(await sideways(page))
  }
  return out
}

/** The e-mails of the local inbox whose subject matches, by recipient. */
async function inbox(subject: RegExp) {
  const list = (await (await fetch(`${inboxURL()}/api/email`)).json()) as {
    subject: string
    to: { address: string }[]
  }[]
  const by = new Map<string, string[]>()
  for (const m of list.filter((m) => subject.test(m.subject)))
    for (const t of m.to) by.set(t.address, [...(by.get(t.address) ?? []), m.subject])
  return by
}

describe('newsletters in the desk', () => {
  it(
    'a staff member composes in English and Arabic, previews, tests, and sends to every subscriber',
    { timeout: 180_000 },
    async () => {
      const readers = {
        en: await subscribers('en', 3),
        ar: await subscribers('ar', 3),
        fr: await subscribers('fr', 1),
      }
      const page = await open('/')
      const staff = await signInStaff(page)
      const subject = `Winter selling checklist ${run}`
      const arSubject = `قائمة البيع في الشتاء ${run}`

      await page.goto('/desk/newsletters')
      await page.getByRole('button', { name: n.new }).click()
      await page.waitForURL(/\/desk\/newsletters\/\d+$/)
      const editor = new URL(page.url()).pathname
      // typed once the editor has hydrated, as a person reading the page would (on a loaded
      // machine the text otherwise went in before, and no preview was ever asked for)
      await island(page, 'markdown-editor')
      await page.getByLabel(n.fields.subject).fill(subject)
      await page
        .getByLabel(n.fields.body)
        .fill(
          `## Three fixes\n\n- **Titles** first\n- Photos\n\n[Book a call](/contact)\n\n${LONG_URL} ${LONG_WORD}`,
        )
      // the live preview is the sanitised rendering, as for articles
      const live = page.getByRole('region', { name: en.desk.content.preview })
      await expect.poll(() => live.locator('strong').count()).toBe(1)
      await page.getByRole('button', { name: n.save, exact: true }).click()
      await page.waitForURL(/done=save/)

      // the e-mail itself, at a desktop's and a phone's width
      const frames = page.locator('iframe')
      await expect.poll(() => frames.count()).toBe(2)
      expect(await frames.nth(0).getAttribute('width')).toBe('680')
      expect(await frames.nth(1).getAttribute('width')).toBe('375')
      const desktop = page.frameLocator('iframe >> nth=0')
      expect(await desktop.locator('h2').textContent()).toBe('Three fixes')
      expect(await desktop.locator('a', { hasText: 'Book a call' }).getAttribute('href')).toMatch(
        /^https?:\/\/[^/]+\/contact\?lang=en$/,
      )
      // a pasted address and a long word wrap: the phone's frame does not scroll sideways
      const phoneFrame = page.frameLocator('iframe >> nth=1')
      await phoneFrame.getByText(LONG_WORD).waitFor()
      expect(await sideways(phoneFrame)).toBe(0)

      // a test in English reaches the staff member
      await page.getByRole('button', { name: n.test.replace('{{email}}', staff) }).click()
      await page.waitForURL(/done=test/)
      const test = await mailTo(staff, new RegExp(subject))
      expect(test.subject).toBe(`${en.mail.newsletter_test} ${subject}`)
      expect(test.html).toMatch(/<strong[^>]*>Titles<\/strong>/)
      expect(test.html).toContain(LONG_WORD)
      const phone = await open('about:blank')
      expect(await onPhones(phone, test.html!)).toEqual([0, 0])

      // the Arabic text, its preview right-to-left, its test
      await page
        .getByRole('navigation', { name: n.languages })
        .getByRole('link', { name: /العربية/ })
        .click()
      await page.waitForURL(/tab=ar/)
      await island(page, 'markdown-editor')
      await page.getByLabel(n.fields.subject).fill(arSubject)
      await page
        .getByLabel(n.fields.body)
        .fill(`## ثلاثة إصلاحات\n\n- **العناوين** أولاً\n- الصور\n\n${LONG_URL} ${LONG_WORD}`)
      await page.getByRole('button', { name: n.test.replace('{{email}}', staff) }).click()
      await page.waitForURL(/done=test/)
      expect(await page.frameLocator('iframe >> nth=1').locator('html').getAttribute('dir')).toBe(
        'rtl',
      )
      expect(await page.frameLocator('iframe >> nth=1').locator('h2').textContent()).toBe(
        'ثلاثة إصلاحات',
      )
      expect(await sideways(page.frameLocator('iframe >> nth=1'))).toBe(0)
      const arTest = await mailTo(staff, new RegExp(arSubject))
      expect(arTest.html).toContain('<html lang="ar" dir="rtl"')
      expect(await onPhones(phone, arTest.html!)).toEqual([0, 0])
      await phone.context().close()
      // nobody else got a test
      for (const r of Object.values(readers).flat())
        expect((await inbox(new RegExp(run))).get(r)).toBeUndefined()

      // no serious accessibility problem on the list or the editor, in English or Arabic
      expect(
        await seriousViolationsOn(page, [
          '/desk/newsletters',
          `${editor}?tab=en`,
          '/desk/newsletters?lang=ar',
          `${editor}?tab=ar&lang=ar`,
        ]),
      ).toEqual([])

      // send now
      const confirmed = (await query(
        "SELECT email, language FROM subscribers WHERE status = 'confirmed'",
      )) as { email: string; language: string }[]
      await page.getByRole('button', { name: new RegExp(n.send.other.split('{{n}}')[0]) }).click()
      await page.waitForURL(/done=send/)
      // the record fills in as the queue sends: reload until it says sent
      await expect
        .poll(
          async () => {
            await page.goto(editor)
            return page.locator('[data-count="queued"]').textContent()
          },
          { timeout: 60_000, interval: 1000 },
        )
        .toBe('0')
      const count = async (k: string) =>
        Number((await page.locator(`[data-count="${k}"]`).textContent())!.replace(/\D/g, ''))

      // one e-mail per confirmed subscriber, in their language (French reads the English); the
      // other browser tests share this server, so theirs may unsubscribe meanwhile: at most one
      const got = await inbox(new RegExp(`^(${subject}|${arSubject})$`))
      for (const { email, language } of confirmed)
        if (got.has(email))
          expect(got.get(email), email).toEqual([language === 'ar' ? arSubject : subject])
      for (const r of [...readers.en, ...readers.fr]) expect(got.get(r), r).toEqual([subject])
      for (const r of readers.ar) expect(got.get(r), r).toEqual([arSubject])
      expect(await count('sent')).toBe(got.size)
      expect(await count('failed')).toBe(0)
      const mail = await mailTo(readers.ar[0], new RegExp(arSubject))
      expect(mail.html).toContain('<html lang="ar" dir="rtl"')
      expect(mail.headers.find((h) => h.key === 'list-unsubscribe')?.value).toContain(
        '/unsubscribe?token=',
      )
    },
  )
})
