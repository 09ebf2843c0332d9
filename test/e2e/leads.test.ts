import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import guides from '../../locales/guides/en.json'
import { hydrated, island, PHONE, useBrowser } from './browser'
import { query } from './d1'
import { inboxURL, mailTo } from './inbox'

const { open } = useBrowser()
const unique = (tag: string) => `${tag}-${crypto.randomUUID().slice(0, 8)}@example.org`
type Page = Awaited<ReturnType<typeof open>>

/** The notice currently shown: its title and text. */
async function notice(page: Page, role: 'status' | 'alert' = 'status') {
  const card = page.locator(`.notice-host [role=${role}] .notice`).first()
  await card.waitFor({ timeout: 30_000 })
  return {
    title: await card.locator('.notice-title').textContent(),
    text: await card.locator('.notice-text').textContent(),
  }
}

describe('welcome popup', () => {
  it('opens about 2 s after load, traps focus, closes on Escape and never comes back', async () => {
    const page = await open('/about', { welcome: true })
    // The 2 s are the page's own timer: the test holds the page's clock from before the page
    // loads and moves it itself (a test that slept and looked, or measured real time, was wrong
    // whenever a busy machine was late).
    await page.clock.install()
    await page.clock.pauseAt(Date.now() + 60_000)
    await page.reload() // not yet closed, so it comes again
    const dialog = page.locator('#welcome-popup')
    // the page's script has run, no time gone on its clock
    await hydrated(page)
    // 2 s after the page appears (its first frame), never sooner
    await page.clock.runFor(2000)
    expect(await dialog.isVisible()).toBe(false)
    await page.clock.runFor(100)
    expect(await dialog.isVisible()).toBe(true)
    expect(await dialog.evaluate((d: HTMLDialogElement) => d.open && d.matches(':modal'))).toBe(
      true,
    )
    // focus stays inside: tabbing around never reaches the page behind
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => !!document.activeElement?.closest('#welcome-popup'))).toBe(
        true,
      )
    }
    await page.keyboard.press('Escape')
    expect(await dialog.isVisible()).toBe(false)
    // the dialog's close event comes a task later
    await page.waitForFunction(() => localStorage.getItem('welcome-popup-seen') === '1')
    await page.reload()
    await hydrated(page)
    // a minute of the page's time: it stays closed
    await page.clock.runFor(60_000)
    expect(await dialog.isVisible()).toBe(false)
    await page.context().close()
  })

  it('on the first page of a visit, opens 2 s after the splash has faded, not over it', async () => {
    const page = await open('/favicon.svg', { welcome: true, splash: true })
    // The splash is a CSS animation: DevTools' animation speed holds it still (a phone slow
    // enough to show it for ever) until the test lets it fade. The popup's 2 s are the page's
    // own timer, on the page's clock, which the test holds and moves itself.
    const devtools = await page.context().newCDPSession(page)
    await devtools.send('Animation.enable')
    await devtools.send('Animation.setPlaybackRate', { playbackRate: 0 })
    await page.clock.install()
    await page.clock.pauseAt(Date.now() + 60_000)
    await page.context().addInitScript(() =>
      addEventListener(
        'animationend',
        (e) => {
          if ((e.target as Element).id === 'splash') Object.assign(window, { splashEnd: true })
        },
        true,
      ),
    )
    await page.goto('/')
    const dialog = page.locator('#welcome-popup')
    await hydrated(page)
    // however long the splash stays, the popup does not open over it
    await page.clock.runFor(10_000)
    expect(await page.locator('#splash').isVisible()).toBe(true)
    expect(await dialog.isVisible()).toBe(false)
    // the splash fades; the page's clock stands still meanwhile
    await devtools.send('Animation.setPlaybackRate', { playbackRate: 1 })
    await page.waitForFunction(() => 'splashEnd' in window)
    expect(await dialog.isVisible()).toBe(false)
    // 2 s of the page's time after it has faded, not sooner
    await page.clock.runFor(1999)
    expect(await dialog.isVisible()).toBe(false)
    await page.clock.runFor(100)
    expect(await dialog.isVisible()).toBe(true)
    await page.context().close()
  })

  it('closes from its button and from the backdrop, remembering either', async () => {
    for (const how of ['button', 'backdrop']) {
      const page = await open('/', { welcome: true, viewport: PHONE })
      const dialog = page.locator('#welcome-popup')
      await dialog.waitFor({ state: 'visible', timeout: 15_000 })
      if (how === 'button') await dialog.getByRole('button', { name: 'Close' }).click()
      else await page.mouse.click(5, 5)
      expect(await dialog.isVisible(), how).toBe(false)
      // the dialog's close event comes a task later
      await page.waitForFunction(() => localStorage.getItem('welcome-popup-seen') === '1')
      await page.context().close()
    }
  })

  it('asks for missing fields, then subscribes, then recognises the same person', async () => {
    const email = unique('popup')
    const page = await open('/', { welcome: true })
    const dialog = page.locator('#welcome-popup')
    await dialog.waitFor({ state: 'visible', timeout: 15_000 })
    await page.waitForSelector('#welcome-popup [data-island][data-hydrated=done]', {
      state: 'attached',
    })
    await dialog.getByRole('button', { name: 'Send me the free guide' }).click()
    expect(await notice(page, 'alert')).toEqual({
      title: 'Missing Information',
      text: 'Please fill in all fields',
    })

    await dialog.getByLabel('Your name').fill('Popup Person')
    await dialog.getByLabel('Your email').fill(email)
    // the answer is held back until the submitting state has been seen
    let answer = () => {}
    const seen = new Promise<void>((resolve) => (answer = resolve))
    await page.route('**/api/email-signup', async (route) => {
      await seen
      await route.continue()
    })
    await dialog.getByRole('button', { name: 'Send me the free guide' }).click()
    const busy = dialog.getByRole('button', { name: 'Sending…' })
    await busy.waitFor()
    expect(await busy.isDisabled()).toBe(true)
    answer()
    expect(await notice(page)).toEqual({
      title: 'Success!',
      text: 'Check your email for your free Digital Marketing Starter Guide!',
    })
    expect(
      await dialog.getByRole('status').filter({ hasText: en.popup.thanks_title }).isVisible(),
    ).toBe(true)
    expect(await dialog.locator('form:not([method=dialog])').count()).toBe(0)
    expect(
      await query(`SELECT name, signup_form, language FROM subscribers WHERE email = '${email}'`),
    ).toEqual([{ name: 'Popup Person', signup_form: 'welcome_popup', language: 'en' }])

    // the promised guide arrives: open the message in the local inbox and follow its link
    const mail = await mailTo(email, new RegExp(en.mail.optin_subject))
    expect(mail.subject).toBe(en.mail.optin_subject)
    expect(mail.text).toContain('Hello Popup Person,')
    await page.goto(`${inboxURL()}/api/email/${mail.id}/html`)
    await page.getByRole('link', { name: en.mail.welcome_action }).click()
    await page.waitForURL((url) => url.pathname === '/guides/invisible-business-mistakes')
    expect(await page.locator('h1').textContent()).toBe(guides['invisible-business-mistakes'].title)
    await page.context().close()

    const again = await open('/', { welcome: true })
    const second = again.locator('#welcome-popup')
    await second.waitFor({ state: 'visible', timeout: 15_000 })
    await again.waitForSelector('#welcome-popup [data-island][data-hydrated=done]', {
      state: 'attached',
    })
    await second.getByLabel('Your name').fill('Popup Person')
    await second.getByLabel('Your email').fill(email.toUpperCase())
    await second.getByRole('button', { name: 'Send me the free guide' }).click()
    expect(await notice(again)).toEqual({
      title: 'Already Subscribed!',
      text: "You're already on our list! Check your email for the freebie.",
    })
    await again.context().close()
  })

  it('speaks Arabic in Arabic, and reports the lead to trackers on the page', async () => {
    const page = await open('/?lang=ar', { welcome: true, viewport: PHONE })
    await page.addInitScript(() => {
      const calls: unknown[] = []
      Object.assign(window, {
        trackerCalls: calls,
        fbq: (...a: unknown[]) => calls.push(['fbq', ...a]),
        gtag: (...a: unknown[]) => calls.push(['gtag', ...a]),
        dataLayer: [],
      })
    })
    await page.reload()
    const dialog = page.locator('#welcome-popup')
    await dialog.waitFor({ state: 'visible', timeout: 15_000 })
    await page.waitForSelector('#welcome-popup [data-island][data-hydrated=done]', {
      state: 'attached',
    })
    await dialog.getByRole('button', { name: ar.popup.submit }).click()
    expect(await notice(page, 'alert')).toEqual({
      title: ar.notices.missing_title,
      text: ar.notices.missing_fields,
    })
    await dialog.getByLabel(ar.popup.name).fill('سارة')
    await dialog.getByLabel(ar.popup.email).fill(unique('ar'))
    await dialog.getByRole('button', { name: ar.popup.submit }).click()
    expect(await notice(page)).toEqual({
      title: ar.notices.success_title,
      text: ar.notices.success_text,
    })
    const calls = await page.evaluate(() => ({
      trackers: (window as never as { trackerCalls: unknown[] }).trackerCalls,
      dataLayer: (window as never as { dataLayer: unknown[] }).dataLayer,
    }))
    expect(calls.trackers).toContainEqual([
      'fbq',
      'track',
      'Lead',
      { content_name: 'welcome_popup' },
    ])
    expect(calls.trackers).toContainEqual([
      'gtag',
      'event',
      'generate_lead',
      { form: 'welcome_popup' },
    ])
    expect(calls.dataLayer).toContainEqual({ event: 'generate_lead', form: 'welcome_popup' })
    await page.context().close()
  })
})

for (const [lang, t, viewport, device] of [
  ['en', en, undefined, 'desktop'],
  ['ar', ar, PHONE, 'phone'],
] as const)
  describe(`free guide download (${lang}, ${device})`, () => {
    it('asks for missing fields, stores the request and downloads the real guide', async () => {
      const email = unique('guide')
      const title = t.home.guides[1].title
      const page = await open(`/?lang=${lang}`, { viewport })
      const picker = await island(page, 'guide-picker')
      await picker.getByRole('button', { name: title }).click()
      await picker.getByRole('button', { name: t.home.guide_submit }).click()
      expect(await notice(page, 'alert')).toEqual({
        title: t.notices.missing_title,
        text: t.notices.missing_guide_fields,
      })
      await picker.getByLabel(t.home.guide_name).fill('Guide Reader')
      await picker.getByLabel(t.home.guide_email).fill(email)
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        picker.getByRole('button', { name: t.home.guide_submit }).click(),
      ])
      expect(download.suggestedFilename()).toBe(`social-media-growth-kit-${lang}.html`)
      const file = readFileSync((await download.path())!, 'utf8')
      expect(file).toMatch(
        new RegExp(`^<!DOCTYPE html><html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}">`),
      )
      expect(file).toContain(`<h1>${title}</h1>`)
      expect(file.length).toBeGreaterThan(10_000)
      expect(await notice(page)).toEqual({
        title: t.notices.download_title,
        text: t.notices.download_text.replace('{{title}}', title),
      })
      expect(
        await query(`SELECT name, guide, language FROM guide_requests WHERE email = '${email}'`),
      ).toEqual([{ name: 'Guide Reader', guide: 'social-media-growth-kit', language: lang }])
      // no link anywhere points at a local or device path
      const hrefs = await page.$$eval('a[href]', (as) => as.map((a) => a.getAttribute('href')!))
      expect(
        hrefs.filter((h) => /^(file:|[A-Za-z]:\\|\/(Users|home|storage|sdcard)\/)/.test(h)),
      ).toEqual([])
      await page.context().close()
    })
  })

describe('footer newsletter', () => {
  it('needs an e-mail, subscribes, and takes a repeat gracefully', async () => {
    const email = unique('news')
    for (const round of [1, 2]) {
      const page = await open('/faq')
      const box = await island(page, 'newsletter-form')
      await box.getByRole('button', { name: 'Subscribe' }).click()
      expect(await notice(page, 'alert')).toEqual({
        title: 'Missing Information',
        text: 'Please fill in all fields',
      })
      await box.getByLabel('Email address').fill(email)
      await box.getByRole('button', { name: 'Subscribe' }).click()
      expect(await notice(page)).toEqual(
        round === 1
          ? {
              title: 'Successfully subscribed!',
              text: "You'll receive our latest digital marketing tips and insights.",
            }
          : {
              title: en.notices.newsletter_already_title,
              text: en.notices.newsletter_already_text,
            },
      )
      expect(await box.getByRole('status').textContent()).toContain(
        en.footer.newsletter_thanks_title,
      )
      await page.context().close()
    }
    expect(await query(`SELECT signup_form FROM subscribers WHERE email = '${email}'`)).toEqual([
      { signup_form: 'newsletter' },
    ])
  })

  it('works without JavaScript too: kept, but nothing e-mailed without the check', async () => {
    const email = unique('nojs')
    const page = await open('/pricing', { javaScript: false })
    await page.locator('#newsletter-email').fill(email)
    await page.locator('footer').getByRole('button', { name: 'Subscribe' }).click()
    await page.waitForURL('**/api/newsletter')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      en.notices.newsletter_unchecked_title,
    )
    expect(await query(`SELECT email FROM subscribers WHERE email = '${email}'`)).toHaveLength(1)
    await page.context().close()
  })
})

describe('contact form', () => {
  it('checks required fields, sends the message and stores it in D1', async () => {
    const email = unique('contact')
    const page = await open('/contact?lang=es', { locale: 'es-ES' })
    await hydrated(page)
    const form = await island(page, 'contact-form')
    const es = (await import('../../locales/es.json')).default
    await form.getByRole('button', { name: es.contact.submit }).click()
    expect(await notice(page, 'alert')).toEqual({
      title: es.notices.missing_title,
      text: es.notices.missing_fields,
    })
    await form.getByLabel(es.contact.name).fill('Lucía')
    await form.getByLabel(es.contact.email).fill(email)
    await form.getByLabel(es.contact.service).selectOption('shopify')
    await form.getByLabel(es.contact.budget).selectOption('5k_15k')
    await form
      .getByLabel(es.contact.message)
      .fill('Queremos mejorar la conversión de nuestra tienda Shopify.')
    await form.getByRole('button', { name: es.contact.submit }).click()
    expect(await notice(page)).toEqual({
      title: es.notices.contact_title,
      text: es.notices.contact_text,
    })
    expect(await form.getByRole('status').textContent()).toContain(es.contact.success_title)
    expect(
      await query(
        `SELECT name, service, budget, language FROM contact_messages WHERE email = '${email}'`,
      ),
    ).toEqual([{ name: 'Lucía', service: 'shopify', budget: '5k_15k', language: 'es' }])
    await page.context().close()
  })
})
