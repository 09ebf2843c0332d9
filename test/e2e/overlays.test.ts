import { describe, expect, it } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import { hydrated, PHONE, useBrowser } from './browser'
import ICAL from 'ical.js'
import { query } from './d1'
import { mailTo } from './inbox'
import { claimSlot, radioValues } from './slot-claims'

const { open } = useBrowser()
type Page = Awaited<ReturnType<typeof open>>

describe('splash loader', () => {
  it('shows at the start of a visit, fades by about 2 s, and not on the next page', async () => {
    // The splash's clock is its CSS animation, which starts before the first paint: a visitor
    // sees it from the first frame until 1.8 s after that start (1.5 s shown, 0.3 s fade).
    const page = await open('/favicon.svg', { splash: true })
    await page.context().addInitScript(() =>
      addEventListener(
        'animationend',
        (e) => {
          if ((e.target as Element).id === 'splash')
            Object.assign(window, { splashEnd: e.timeStamp })
        },
        true,
      ),
    )
    await page.goto('/')
    const splash = page.locator('#splash')
    expect(await splash.evaluate((el) => getComputedStyle(el).animationDelay)).toBe('1.5s')
    expect(await splash.evaluate((el) => getComputedStyle(el).animationDuration)).toBe('0.3s')
    const { started, endTime } = await splash.evaluate((el) => {
      const [fade] = el.getAnimations()
      return { started: Number(fade.startTime), endTime: fade.effect!.getComputedTiming().endTime }
    })
    // gone 1.8 s after its start, on the page's timeline
    expect(endTime).toBe(1800)
    await page.waitForFunction(() => 'splashEnd' in window)
    const { end, paint, hidden } = await page.evaluate(() => ({
      end: (window as unknown as { splashEnd: number }).splashEnd,
      paint: performance.getEntriesByName('first-paint')[0].startTime,
      hidden: getComputedStyle(document.getElementById('splash')!).visibility === 'hidden',
    }))
    expect(started).toBeLessThanOrEqual(paint)
    // and not before (when it is seen to end is the machine's: a busy one draws late)
    expect(end - started).toBeGreaterThan(1750)
    expect(hidden).toBe(true)
    // the page underneath was there all along: no layout shift when it goes
    expect(await page.getByRole('heading', { level: 1 }).isVisible()).toBe(true)
    await page.locator('header').getByRole('link', { name: 'About' }).click()
    await page.waitForURL('**/about')
    expect(await page.locator('#splash').isVisible()).toBe(false)
    await page.context().close()
  })

  it('is skipped for reduced motion and without JavaScript', async () => {
    for (const options of [{ reducedMotion: true }, { javaScript: false }]) {
      const page = await open('/', { splash: true, ...options })
      expect(await page.locator('#splash').isVisible(), JSON.stringify(options)).toBe(false)
      await page.context().close()
    }
  })
})

describe('floating buttons', () => {
  it('links WhatsApp with the greeting, bottom-left, mirrored in Arabic', async () => {
    for (const lang of ['en', 'ar']) {
      const page = await open(`/?lang=${lang}`, { viewport: PHONE })
      const link = page.getByRole('link', {
        name: lang === 'en' ? /Chat with us on WhatsApp/ : new RegExp(ar.whatsapp.label),
      })
      const href = new URL((await link.getAttribute('href'))!)
      expect(href.origin + href.pathname).toBe('https://wa.me/447700900123')
      expect(href.searchParams.get('text')).toBe(
        lang === 'en'
          ? 'Hello Northstar Growth! I would like to know more about your services.'
          : ar.whatsapp.greeting,
      )
      expect(await link.getAttribute('target')).toBe('_blank')
      expect(await link.getAttribute('rel')).toContain('noopener')
      const box = (await link.boundingBox())!
      if (lang === 'en') expect(box.x).toBeLessThan(40)
      else expect(box.x + box.width).toBeGreaterThan(PHONE.width - 40)
      await page.context().close()
    }
  })

  it('expands and collapses the consultation widget, without covering WhatsApp on a 360 px phone', async () => {
    const page = await open('/faq', { viewport: { width: 360, height: 740 } })
    await hydrated(page)
    const widget = page.locator('#consult-widget')
    const toggle = widget.locator('summary')
    const card = widget.getByRole('link', { name: 'Talk to us' })
    expect(await card.isVisible()).toBe(false)
    await toggle.click()
    expect(await card.isVisible()).toBe(true)
    expect(await card.getAttribute('href')).toBe('/contact')
    await page.keyboard.press('Escape')
    expect(await card.isVisible()).toBe(false)
    await toggle.click()
    await page.mouse.click(180, 200)
    expect(await card.isVisible()).toBe(false)
    const a = (await toggle.boundingBox())!
    const b = (await page.locator('a[href^="https://wa.me"]').last().boundingBox())!
    const overlap =
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    expect(overlap).toBe(false)
    await page.context().close()
  })
})

async function openDialogFrom(page: Page, trigger: ReturnType<Page['locator']>) {
  await trigger.click()
  const dialog = page.locator('#booking-dialog')
  await dialog.waitFor({ state: 'visible' })
  return dialog
}

describe('scheduling dialog', () => {
  it('opens from the hero, the closing call to action and the widget, and returns focus on close', async () => {
    const page = await open('/')
    await hydrated(page)
    // The scheduler's frame is built on the first opening, not with every page.
    expect(page.frames()).toHaveLength(1)
    const widget = page.locator('#consult-widget summary')
    // [what is clicked, what has the focus after closing]
    const triggers = [
      () =>
        page.locator('main section').first().getByRole('link', { name: 'Book Free Consultation' }),
      () => page.getByRole('link', { name: "Let's Grow Your Business" }),
      async () => {
        await widget.click()
        return page.locator('#consult-widget').getByRole('link', { name: 'Book Free Consultation' })
      },
    ]
    for (const [i, t] of triggers.entries()) {
      const trigger = await t()
      const returnsTo = i === 2 ? widget : trigger
      const dialog = await openDialogFrom(page, trigger)
      expect(await dialog.evaluate((d: HTMLDialogElement) => d.matches(':modal'))).toBe(true)
      const frame = dialog.locator('iframe')
      expect(await frame.getAttribute('src')).toBe('/book?embed=1&lang=en')
      await page.frameLocator('#booking-dialog iframe').getByText('Choose a time').first().waitFor()
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'hidden' })
      // (a condition, not a moment: while the dialog closes the focus passes through it first)
      await expect.poll(() => returnsTo.evaluate((el) => el === document.activeElement)).toBe(true)
    }
    await page.context().close()
  })

  for (const [lang, viewport, name] of [
    ['en', undefined, 'desktop'],
    ['en', PHONE, 'phone'],
    ['ar', undefined, 'desktop'],
    ['ar', PHONE, 'phone'],
  ] as const) {
    it(`books a consultation through the dialog in ${lang} on ${name}`, async () => {
      const id = crypto.randomUUID().slice(0, 6)
      const email = `book-${lang}-${id}@example.org`
      // the agency's notices of the other bookings land in the same inbox meanwhile
      const name = `Booker ${id}`
      const page = await open(`/?lang=${lang}`, { viewport })
      await hydrated(page)
      await openDialogFrom(page, page.locator('main a[data-booking]').first())
      const frame = page.frameLocator('#booking-dialog iframe')
      await frame.locator('[data-island][data-hydrated=done]').waitFor({ state: 'attached' })
      const days = frame.getByRole('group').first().getByRole('button')
      // the second day's third time, or the next no other test claimed; that day full of other
      // tests' claims (the suite books more than a short day holds), the next day's
      let slot = ''
      for (let day = 1; !slot; day++) {
        await days.nth(day).click()
        const times = (await radioValues(frame.getByRole('radio'))).slice(2)
        try {
          slot = claimSlot(times)
        } catch (err) {
          if (day >= (await days.count()) - 1) throw err
        }
      }
      const time = frame.locator(`input[value="${slot}"]`)
      await frame.locator(`label:has(input[value="${slot}"])`).click()
      expect(await time.isChecked()).toBe(true)
      const t =
        lang === 'en'
          ? {
              name: 'Your name',
              email: 'Your email',
              submit: 'Confirm booking',
              done: 'Your consultation is booked',
            }
          : {
              name: ar.booking.name,
              email: ar.booking.email,
              submit: ar.booking.submit,
              done: ar.booking.confirmed_title,
            }
      await frame.getByLabel(t.name).fill(name)
      await frame.getByLabel(t.email).fill(email)
      await frame.getByRole('button', { name: t.submit }).click()
      await frame.getByRole('heading', { name: t.done }).waitFor()
      const ics = frame.getByRole('link', {
        name: lang === 'en' ? 'Add to calendar (.ics)' : ar.booking.add_calendar,
      })
      expect(await ics.getAttribute('href')).toMatch(/^\/book\/[0-9a-f-]{36}\.ics$/)
      expect(
        await query(`SELECT slot_start, language FROM bookings WHERE email = '${email}'`),
      ).toEqual([{ slot_start: slot, language: lang }])

      // the visitor's confirmation, in their language, with an invitation for the 30 minutes
      const confirmation = await mailTo(email)
      expect(confirmation.subject).toContain(
        (lang === 'en' ? en : ar).booking.mail_subject.split('{{')[0].trim(),
      )
      const [invite] = confirmation.attachments
      expect(invite.mimeType).toBe('text/calendar')
      const event = new ICAL.Event(
        new ICAL.Component(ICAL.parse(String(invite.content))).getFirstSubcomponent('vevent')!,
      )
      expect(event.startDate.toJSDate().toISOString()).toBe(slot)
      expect(event.duration.toSeconds()).toBe(30 * 60)
      // and the agency's notice of it, which a reply sends to the visitor
      const notice = await mailTo('hello@growthagency.example', new RegExp(name))
      expect(notice.replyTo?.[0].address).toBe(email)
      expect(notice.text).toContain(email)
      await page.context().close()
    })
  }
})
