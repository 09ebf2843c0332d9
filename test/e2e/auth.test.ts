import { describe, expect, it } from 'vitest'
import ar from '../../locales/ar.json'
import de from '../../locales/de.json'
import en from '../../locales/en.json'
import { hydrated, PHONE, useBrowser } from './browser'
import { codeFor } from '../totp'
import { mailTo, siteLink } from './inbox'

const { open } = useBrowser()

async function notice(page: Awaited<ReturnType<typeof open>>, role: 'status' | 'alert' = 'status') {
  const card = page.locator(`.notice-host [role=${role}] .notice`).first()
  await card.waitFor({ timeout: 30_000 })
  const text = card.locator('.notice-text')
  return {
    title: await card.locator('.notice-title').textContent(),
    text: (await text.count()) ? await text.textContent() : null,
  }
}

for (const [lang, t, viewport, device] of [
  ['en', en, undefined, 'desktop'],
  ['ar', ar, PHONE, 'phone'],
] as const) {
  describe(`signing in (${lang}, ${device})`, () => {
    it('signs up, shows the Account menu with the e-mail, signs out with a notice, signs back in', async () => {
      const email = `e2e-${lang}-${crypto.randomUUID().slice(0, 6)}@example.org`
      const page = await open(`/auth?mode=sign-up&lang=${lang}`, { viewport })
      await page.locator('main').getByLabel(t.auth.email).fill(email)
      await page.locator('main').getByLabel(t.auth.password).fill('correct horse 1')
      await page.locator('main form').getByRole('button', { name: t.auth.sign_up }).click()
      await page.waitForURL((url) => url.pathname === '/')
      await hydrated(page)
      expect(await notice(page)).toEqual({ title: t.auth.signed_up_title, text: email })

      // the account: a menu on desktop, shown open in the phone's menu
      const openAccount = async () => {
        if (device === 'desktop')
          await page.locator('header details[data-account] > summary').click()
        else await page.locator('header details:not(.relative) > summary').click()
      }
      await openAccount()
      expect(await page.locator('header').getByText(email).filter({ visible: true }).count()).toBe(
        1,
      )
      await page
        .locator('header')
        .getByRole('button', { name: t.auth.sign_out, exact: true })
        .filter({ visible: true })
        .click()
      await page.waitForLoadState('load')
      await hydrated(page)
      expect(await notice(page)).toEqual({
        title: t.auth.signed_out_title,
        text: t.auth.signed_out_text,
      })
      expect(await page.locator('header a[href="/auth"]').count()).toBeGreaterThan(0)

      // wrong password: the form says so; the right one signs in
      await page.goto('/auth')
      await page.locator('main').getByLabel(t.auth.email).fill(email)
      await page.locator('main').getByLabel(t.auth.password).fill('not the password')
      await page.locator('main form').getByRole('button', { name: t.nav.sign_in }).click()
      await page.waitForURL(/error=invalid_credentials/)
      expect(
        await page
          .getByRole('alert')
          .filter({ hasText: t.auth.errors.invalid_credentials })
          .isVisible(),
      ).toBe(true)
      await page.locator('main').getByLabel(t.auth.password).fill('correct horse 1')
      await page.locator('main form').getByRole('button', { name: t.nav.sign_in }).click()
      await page.waitForURL((url) => url.pathname === '/')
      expect(await notice(page)).toEqual({ title: t.auth.signed_in_title, text: email })
      await page.context().close()
    })
  })
}

for (const [lang, t] of [
  ['en', en],
  ['ar', ar],
] as const)
  describe(`two tabs (${lang})`, () => {
    /** A tab signed up with a new account, on the home page it lands on. */
    async function signedUpTab(prefix: string) {
      const email = `${prefix}-${lang}-${crypto.randomUUID().slice(0, 6)}@example.org`
      const page = await open(`/auth?mode=sign-up&lang=${lang}`)
      await page.locator('main').getByLabel(t.auth.email).fill(email)
      await page.locator('main').getByLabel(t.auth.password).fill('correct horse 1')
      await page.locator('main form').getByRole('button', { name: t.auth.sign_up }).click()
      await page.waitForURL((url) => url.pathname === '/')
      return page
    }

    it('signing out in one tab signs the other out too', async () => {
      const first = await signedUpTab('e2e-tabs')
      const second = await first.context().newPage()
      // the other tab's own check (every 30 s) is left unanswered: only the first tab's news can
      // sign it out, however long a busy machine takes to bring it
      await second.route('**/auth/session', () => {})
      await second.goto('/about')
      await hydrated(second)
      expect(await second.locator('header details[data-account]').count()).toBe(1)
      await hydrated(first)
      await first.locator('header details[data-account] > summary').click()
      await first
        .locator('header')
        .getByRole('button', { name: t.auth.sign_out, exact: true })
        .filter({ visible: true })
        .click()
      // the other tab hears it and reloads, signed out
      await second.waitForSelector('header a[href="/auth"]', { timeout: 60_000 })
      expect(await second.locator('header details[data-account]').count()).toBe(0)
      await first.context().close()
    })

    it('a tab still loading its scripts when the other signs out catches up once they come', async () => {
      const first = await signedUpTab('e2e-tabs2')
      await hydrated(first)
      // the second tab's page arrives signed in, its scripts held back (a slow phone)
      const second = await first.context().newPage()
      let release = () => {}
      const held = new Promise<void>((resolve) => (release = resolve))
      await second.route(/\/assets\/.*\.js$/, async (route) => {
        await held
        await route.continue()
      })
      const checks: string[] = []
      second.on('request', (r) => {
        if (r.url().endsWith('/auth/session')) checks.push(r.url())
      })
      await second.goto('/about', { waitUntil: 'domcontentloaded' })
      expect(await second.locator('header details[data-account]').count()).toBe(1)
      // the first tab signs out, and its next page has told whoever listened
      await first.locator('header details[data-account] > summary').click()
      await first
        .locator('header')
        .getByRole('button', { name: t.auth.sign_out, exact: true })
        .filter({ visible: true })
        .click()
      await first.waitForSelector('header a[href="/auth"]')
      await hydrated(first)
      let firstReloads = 0
      first.on('framenavigated', (frame) => {
        if (frame === first.mainFrame()) firstReloads++
      })
      // the scripts come: the page sees it is older than the sign-out and reloads, signed out,
      // without waiting for its 30 s check, and without telling the first tab its stale state
      // (which reloaded that tab, and so on: seconds of reloads on a busy phone)
      release()
      await second.waitForSelector('header a[href="/auth"]', { timeout: 60_000 })
      expect(await second.locator('header details[data-account]').count()).toBe(0)
      expect(checks).toEqual([])
      expect(firstReloads).toBe(0)
      await first.context().close()
    })
  })

for (const [lang, t, viewport, device] of [
  ['en', en, undefined, 'desktop'],
  ['ar', ar, PHONE, 'phone'],
] as const) {
  describe(`two-step verification (${lang}, ${device})`, () => {
    it('sets up an authenticator app on the account page, then signs in with its code', async () => {
      const email = `e2e-mfa-${lang}-${crypto.randomUUID().slice(0, 6)}@example.org`
      const page = await open(`/auth?mode=sign-up&lang=${lang}`, { viewport })
      await page.locator('main').getByLabel(t.auth.email).fill(email)
      await page.locator('main').getByLabel(t.auth.password).fill('correct horse 1')
      await page.locator('main form').getByRole('button', { name: t.auth.sign_up }).click()
      await page.waitForURL((url) => url.pathname === '/')

      await page.goto('/account')
      expect(await page.getByText(t.auth.mfa_none).isVisible()).toBe(true)
      await page.getByRole('button', { name: t.auth.mfa_add }).click()
      await page.waitForURL((url) => url.hash === '#mfa')
      const qr = page.getByRole('img', { name: t.auth.mfa_qr_label })
      expect((await qr.boundingBox())!.width).toBeGreaterThan(150)
      const secret = (await page.locator('[data-secret]').textContent())!.replace(/\s/g, '')
      await page.getByLabel(t.auth.mfa_code).fill('000000')
      await page.getByRole('button', { name: t.auth.mfa_confirm }).click()
      await page.getByRole('alert').filter({ hasText: t.auth.errors.invalid_code }).waitFor()
      await page.getByLabel(t.auth.mfa_code).fill(codeFor(secret))
      await page.getByRole('button', { name: t.auth.mfa_confirm }).click()
      await page.waitForURL((url) => url.pathname === '/account' && !url.hash)
      await hydrated(page)
      expect(await notice(page)).toEqual({ title: t.auth.mfa_enabled, text: null })
      expect(
        await page.locator('main li').filter({ hasText: t.auth.mfa_status_verified }).count(),
      ).toBe(1)

      // sign out, then the password alone leads to the code step
      await page.locator('main').getByRole('button', { name: t.auth.sign_out, exact: true }).click()
      await page.waitForURL((url) => url.pathname === '/')
      await page.goto('/auth')
      await page.locator('main').getByLabel(t.auth.email).fill(email)
      await page.locator('main').getByLabel(t.auth.password).fill('correct horse 1')
      await page.locator('main form').getByRole('button', { name: t.nav.sign_in }).click()
      await page.waitForURL(/mode=mfa/)
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(t.auth.mfa_title)
      expect(await page.locator('header a[href="/auth"]').count()).toBeGreaterThan(0)
      await page.getByLabel(t.auth.mfa_code).fill(codeFor(secret, 1))
      await page.getByRole('button', { name: t.auth.mfa_verify }).click()
      await page.waitForURL((url) => url.pathname === '/')
      await hydrated(page)
      expect(await notice(page)).toEqual({ title: t.auth.signed_in_title, text: email })
      expect(await page.locator('header details[data-account]').count()).toBe(1)
      await page.context().close()
    })
  })
}

for (const [lang, t] of [
  ['en', en],
  ['ar', ar],
] as const)
  describe(`password recovery (${lang})`, () => {
    it('follows the e-mailed link from the inbox to a new password', async () => {
      const email = `e2e-reset-${lang}-${crypto.randomUUID().slice(0, 6)}@example.org`
      const page = await open(`/auth?mode=forgot&lang=${lang}`)
      // an account made through the service's own API
      const signup = await page.request.post('/auth/v1/signup', {
        data: {
          email,
          password: 'first password 1',
          // as supabase-js sends options.captchaToken (the stand-in passes its dummy token)
          gotrue_meta_security: { captcha_token: 'XXXX.DUMMY.TOKEN.XXXX' },
        },
      })
      expect(signup.status()).toBe(200)
      await page.locator('main').getByLabel(t.auth.email).fill(email)
      await page.getByRole('button', { name: t.auth.send_link }).click()
      await page.getByRole('status').filter({ hasText: t.auth.sent }).waitFor()
      const mail = await mailTo(email)
      expect(mail.subject).toBe(t.auth.recovery_subject)
      const link = siteLink(mail.text!)
      await page.goto(link.pathname + link.search)
      await page.getByLabel(t.auth.new_password).fill('second password 2')
      await page.getByRole('button', { name: t.auth.save_password }).click()
      await page.waitForURL((url) => url.pathname === '/')
      expect(await notice(page)).toEqual({
        title: t.auth.password_updated,
        text: t.auth.password_updated_others,
      })
      expect(await page.locator('header details[data-account]').count()).toBe(1)
      await page.context().close()
    })
  })

describe('a refused form (issue 41)', () => {
  it("is the error page in the visitor's language, and its way back is the form as typed", async () => {
    const page = await open('/auth?lang=de')
    const email = `zurueck-${crypto.randomUUID().slice(0, 6)}@example.org`
    await page.locator('main').getByLabel(de.auth.email).fill(email)
    await page.locator('main').getByLabel(de.auth.password).fill('correct horse 1')
    // the form's body made larger than any form may be, on its way
    await page.route('**/auth/sign-in', (route) =>
      route.continue({ postData: `email=x&password=${'x'.repeat(1_100_000)}` }),
    )
    const [refused] = await Promise.all([
      page.waitForResponse('**/auth/sign-in'),
      page.locator('main form').getByRole('button', { name: de.nav.sign_in }).click(),
    ])
    expect(refused.status()).toBe(413)
    expect(await page.locator('h1').textContent()).toBe(de.error_page.too_large.title)
    expect(await page.locator('footer').count()).toBe(1)
    await hydrated(page)
    await page.getByRole('link', { name: de.error_page.back_form }).click()
    await page.waitForURL(/\/auth\?lang=de$/)
    await expect.poll(() => page.locator('main').getByLabel(de.auth.email).inputValue()).toBe(email)
    await page.context().close()
  })
})
