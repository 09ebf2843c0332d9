import { describe, expect, inject, it } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import { island, PHONE, useBrowser } from './browser'
import { query } from './d1'
import { mailTo } from './inbox'
import { claimSlot, radioValues } from './slot-claims'

// The forms that e-mail a typed address, used as a visitor uses them at 390 px: each gets its
// Turnstile token from the widget (the local stand-in of scripts/lib/turnstile-standin.mjs),
// and the server checks it. Then what a visitor sees when a check is refused, and without
// JavaScript.

const { open } = useBrowser()
const unique = (tag: string) => `${tag}-${crypto.randomUUID().slice(0, 8)}@example.org`
const DICTS = { en, ar }
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

/** How many times siteverify was asked about `token` (the stand-in keeps each call). */
const verifications = async (token = 'XXXX.DUMMY.TOKEN.XXXX') =>
  (
    (await (
      await fetch(`${inject('turnstileURL')}/__standin/verifications?token=${token}`)
    ).json()) as unknown[]
  ).length

describe.each(['en', 'ar'] as const)('the forms pass their challenge in %s, at 390 px', (lang) => {
  const t = DICTS[lang]

  it('footer newsletter, guide, booking: each checked once, then stored and e-mailed', async () => {
    const before = await verifications()
    const page = await open(`/?lang=${lang}`, { viewport: PHONE })
    expect(page.errors).toEqual([])

    const newsletter = unique(`news-${lang}`)
    const box = await island(page, 'newsletter-form')
    await box.getByLabel(t.footer.newsletter_email).fill(newsletter)
    await box.getByRole('button', { name: t.footer.newsletter_submit }).click()
    expect((await notice(page)).title).toBe(t.notices.newsletter_title)
    await mailTo(newsletter, new RegExp(t.mail.optin_subject))

    const reader = unique(`guide-${lang}`)
    const picker = await island(page, 'guide-picker')
    await picker.getByRole('button', { name: t.home.guides[0].title }).click()
    await picker.getByLabel(t.home.guide_name).fill('Guide Reader')
    await picker.getByLabel(t.home.guide_email).fill(reader)
    await Promise.all([
      page.waitForEvent('download'),
      picker.getByRole('button', { name: t.home.guide_submit }).click(),
    ])
    await mailTo(reader, /./)
    expect(await verifications()).toBeGreaterThanOrEqual(before + 2)

    const guest = unique(`book-${lang}`)
    await page.goto(`/book?lang=${lang}`)
    const form = await island(page, 'booking-form')
    // the last day shown, a time at random no other test claimed
    const days = page.locator('div[role=group]').getByRole('button')
    await days.last().click()
    const slot = claimSlot(await radioValues(page.getByRole('radio')), { random: true })
    await page.locator(`label:has(input[value="${slot}"])`).click()
    await form.getByLabel(t.booking.name).fill('Booker')
    await form.getByLabel(t.booking.email).fill(guest)
    await form.getByRole('button', { name: t.booking.submit }).click()
    await form.getByRole('heading', { name: t.booking.confirmed_title }).waitFor()
    await mailTo(guest, /./)
    expect(page.errors).toEqual([])
    await page.context().close()
  })

  it('the welcome popup', async () => {
    const email = unique(`popup-${lang}`)
    const page = await open(`/?lang=${lang}`, { viewport: PHONE, welcome: true })
    const dialog = page.locator('#welcome-popup')
    await dialog.waitFor({ state: 'visible', timeout: 15_000 })
    await page.waitForSelector('#welcome-popup [data-island][data-hydrated=done]', {
      state: 'attached',
    })
    await dialog.getByLabel(t.popup.name).fill('Popup Person')
    await dialog.getByLabel(t.popup.email).fill(email)
    await dialog.getByRole('button', { name: t.popup.submit }).click()
    await dialog.getByRole('status').filter({ hasText: t.popup.thanks_title }).waitFor()
    await mailTo(email, new RegExp(t.mail.optin_subject))
    await page.context().close()
  })

  it('sign-up, sign-in link and password reset: the page’s form sends its token on', async () => {
    const email = unique(`account-${lang}`)
    const page = await open(`/auth?mode=sign-up&lang=${lang}`, { viewport: PHONE })
    await page.locator('main').getByLabel(t.auth.email).fill(email)
    await page.locator('main').getByLabel(t.auth.password).fill('correct horse 1')
    await page.locator('main form').getByRole('button', { name: t.auth.sign_up }).click()
    // signed up and in (sign-ups are confirmed at once here): the home page
    await page.waitForURL((url) => url.pathname === '/')
    expect(await query(`SELECT email FROM auth_users WHERE email = '${email}'`)).toEqual([
      { email },
    ])
    await page.context().close()

    const magic = await open(`/auth?mode=magic&lang=${lang}`, { viewport: PHONE })
    await magic.locator('main').getByLabel(t.auth.email).fill(email)
    await magic.getByRole('button', { name: t.auth.magic_send }).click()
    await magic.getByText(t.auth.magic_sent).waitFor()
    await mailTo(email, new RegExp(t.auth.magic_link_subject))
    await magic.goto(`/auth?mode=forgot&lang=${lang}`)
    await magic.locator('main').getByLabel(t.auth.email).fill(email)
    await magic.getByRole('button', { name: t.auth.send_link }).click()
    await magic.getByText(t.auth.sent).waitFor()
    await mailTo(email, new RegExp(t.auth.recovery_subject))
    expect(magic.errors).toEqual([])
    await magic.context().close()
  })

  it('a data request sends its link', async () => {
    const email = unique(`data-${lang}`)
    const page = await open(`/privacy/request?lang=${lang}`, { viewport: PHONE })
    await page.locator('main').getByLabel(t.privacy_request.email_label).fill(email)
    await page.getByRole('button', { name: t.privacy_request.submit }).click()
    await page.getByRole('heading', { name: t.privacy_request.sent_title }).waitFor()
    await mailTo(email, /./)
    await page.context().close()
  })
})

describe('a refused check: said in the visitor’s language, the form as typed', () => {
  const cases = [
    ['standin-case:invalid', 'challenge_failed'],
    ['standin-case:duplicate', 'challenge_expired'],
    ['standin-case:hostname', 'challenge_failed'],
    ['standin-case:action', 'challenge_failed'],
    ['standin-case:not-json', 'challenge_unavailable'],
    ['standin-case:timeout', 'challenge_unavailable'],
  ] as const
  it.each(['en', 'ar'] as const)('the newsletter box, each refusal in turn (%s)', async (lang) => {
    const t = DICTS[lang]
    const page = await open(`/faq?lang=${lang}`, { viewport: PHONE })
    const box = await island(page, 'newsletter-form')
    const field = box.getByLabel(t.footer.newsletter_email)
    // one page for every case: the stand-in's widget hands out the scripted token at each solve
    for (const [token, key] of cases) {
      await page.evaluate((tok) => {
        ;(window as unknown as { __TURNSTILE_STANDIN__: unknown }).__TURNSTILE_STANDIN__ = {
          token: tok,
        }
      }, token)
      const email = unique('refused')
      await field.fill(email)
      await box.getByRole('button', { name: t.footer.newsletter_submit }).click()
      expect(await notice(page, 'alert'), token).toEqual({
        title: t.notices.error_title,
        text: t.errors[key],
      })
      expect(await field.inputValue()).toBe(email)
      expect(await query(`SELECT email FROM subscribers WHERE email = '${email}'`)).toEqual([])
      // dismissed, so the next case's notice is its own
      await page
        .locator('.notice-host [role=alert] .notice')
        .first()
        .getByRole('button', { name: t.notices.dismiss })
        .click()
      await page.locator('.notice-host [role=alert] .notice').first().waitFor({ state: 'detached' })
    }
    await page.context().close()
  })

  it('the data request form comes back with the address and the choice typed', async () => {
    const t = ar
    const email = unique('refused-data')
    const page = await open('/privacy/request?lang=ar', { viewport: PHONE })
    await page.addInitScript(() => {
      ;(window as unknown as { __TURNSTILE_STANDIN__: unknown }).__TURNSTILE_STANDIN__ = {
        token: 'standin-case:invalid',
      }
    })
    await page.reload()
    await page.locator('main').getByLabel(t.privacy_request.email_label).fill(email)
    await page.getByLabel(t.privacy_request.erase).check()
    await page.getByRole('button', { name: t.privacy_request.submit }).click()
    await page.waitForURL((url) => url.searchParams.get('error') === 'invalid')
    await page.getByText(t.errors.challenge_failed).waitFor()
    expect(await page.locator('main').getByLabel(t.privacy_request.email_label).inputValue()).toBe(
      email,
    )
    expect(await page.getByLabel(t.privacy_request.erase).isChecked()).toBe(true)
    await page.context().close()
  })
})

describe('without JavaScript', () => {
  it('keeps the sign-up, e-mails nothing, and says so', async () => {
    const email = unique('nojs')
    const page = await open('/pricing', { javaScript: false, viewport: PHONE })
    await page.locator('#newsletter-email').fill(email)
    await page.locator('footer').getByRole('button', { name: en.footer.newsletter_submit }).click()
    await page.waitForURL('**/api/newsletter')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      en.notices.newsletter_unchecked_title,
    )
    expect(
      await query(`SELECT status, unchecked FROM subscribers WHERE email = '${email}'`),
    ).toEqual([{ status: 'pending', unchecked: 1 }])
    expect(await query(`SELECT id FROM mail_outbox WHERE to_address = '${email}'`)).toEqual([])
    await page.context().close()
  })

  it('books nothing, gives the form back as typed, and that form books itself once JavaScript runs', async () => {
    const guest = unique('nojs-book')
    const page = await open('/book', { javaScript: false, viewport: PHONE })
    const main = page.locator('main')
    // a time near the end of the list, at random, no other test claimed
    const slot = claimSlot((await radioValues(main.getByRole('radio'))).slice(-8), { random: true })
    await main.locator(`label:has(input[value="${slot}"])`).click()
    await main.getByLabel(en.booking.name).fill('No Script')
    await main.getByLabel(en.booking.email).fill(guest)
    await main.getByLabel(en.booking.notes).fill('Etsy shop')
    await main.getByRole('button', { name: en.booking.submit }).click()
    await page.waitForURL('**/api/bookings')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      en.booking.not_booked_title,
    )
    // what was typed, and the time chosen, are in the form again
    expect(await main.getByLabel(en.booking.choose_time).inputValue()).toBe(slot)
    expect(await main.getByLabel(en.booking.name).inputValue()).toBe('No Script')
    expect(await main.getByLabel(en.booking.email).inputValue()).toBe(guest)
    expect(await main.getByLabel(en.booking.notes).inputValue()).toBe('Etsy shop')
    expect(await query(`SELECT id FROM bookings WHERE email = '${guest}'`)).toEqual([])
    await page.context().close()

    // the same post from a browser whose JavaScript runs on the answer (a script that came late)
    const late = await open('/book', { viewport: PHONE })
    await late.evaluate(
      ({ fields }) => {
        const form = document.body.appendChild(document.createElement('form'))
        form.method = 'post'
        form.action = '/api/bookings'
        for (const [name, value] of Object.entries(fields)) {
          const input = form.appendChild(document.createElement('input'))
          input.type = 'hidden'
          input.name = name
          input.value = value
        }
        form.submit()
      },
      { fields: { slot, name: 'No Script', email: guest, notes: 'Etsy shop' } },
    )
    await late.waitForURL('**/api/bookings')
    // the answer's form sends itself once the page's scripts have run: nothing to press
    await late.getByRole('heading', { level: 1, name: en.booking.confirmed_title }).waitFor()
    expect(
      await query(`SELECT slot_start, unchecked FROM bookings WHERE email = '${guest}'`),
    ).toEqual([{ slot_start: slot, unchecked: 0 }])
    await mailTo(guest, /./)
    // nothing refused (the widget's script and frame are allowed there) but the answer itself,
    // a 403 as every refused challenge is
    expect(late.errors.filter((e) => !e.includes('status of 403'))).toEqual([])
    await late.context().close()
  })
})

describe('supabase-js against the built-in service, in Chromium', () => {
  it('signs up with options.captchaToken from the widget, and is refused without one', async () => {
    const page = await open('/about', { viewport: PHONE, bypassCSP: true })
    // the official client, as a site of the agency's own would load it, and the widget's script
    await page.addScriptTag({
      path: 'node_modules/@supabase/supabase-js/dist/umd/supabase.js',
    })
    await page.addScriptTag({
      url: `${inject('turnstileURL')}/turnstile/v0/api.js?render=explicit`,
    })
    const email = unique('sdk')
    const outcome = await page.evaluate(
      async ({ email, siteKey }) => {
        type Answer = {
          error: { status?: number; code?: string } | null
          data: { user: { email?: string } | null }
        }
        const w = window as unknown as {
          supabase: {
            createClient: (
              url: string,
              key: string,
              o: unknown,
            ) => { auth: { signUp: (a: unknown) => Promise<Answer> } }
          }
          turnstile: { render: (el: HTMLElement, p: unknown) => string }
        }
        const client = w.supabase.createClient(location.origin, 'anon-key', {
          auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        })
        const refused = await client.auth.signUp({
          email: `no-token-${email}`,
          password: 'correct horse 1',
        })
        const slot = document.body.appendChild(document.createElement('div'))
        const captchaToken = await new Promise<string>((resolve) =>
          w.turnstile.render(slot, { sitekey: siteKey, action: 'sign-up', callback: resolve }),
        )
        const signed = await client.auth.signUp({
          email,
          password: 'correct horse 1',
          options: { captchaToken },
        })
        return {
          refused: refused.error && { status: refused.error.status, code: refused.error.code },
          error: signed.error,
          email: signed.data.user?.email,
        }
      },
      { email, siteKey: '1x00000000000000000000AA' },
    )
    expect(outcome).toEqual({
      refused: { status: 400, code: 'captcha_failed' },
      error: null,
      email,
    })
    await page.context().close()
  })
})
