import { chromium, type Browser } from 'playwright-core'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import en from '../../locales/en.json'
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from '../../scripts/lib/server.mjs'

// The production shape: the site's AUTH_URL points at a separate auth service (here a second
// instance's built-in one, on another port), and tokens are checked against its remote JWKS.
const site = inject('remoteSiteURL')
const service = inject('authServiceURL')

let browser: Browser
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: TEST_BROWSER_PATH, args: CHROMIUM_ARGS })
})
afterAll(async () => browser?.close())

describe('sign-in with a remote auth service (AUTH_URL)', () => {
  it('has no built-in service of its own', async () => {
    expect((await fetch(`${site}/auth/v1/settings`)).status).toBe(404)
    expect((await fetch(`${service}/auth/v1/settings`)).status).toBe(200)
  })

  it('signs up and in through the other service and verifies its tokens with the remote JWKS', async () => {
    const email = `remote-${crypto.randomUUID().slice(0, 6)}@example.org`
    const context = await browser.newContext({ baseURL: site })
    await context.addInitScript(() => {
      localStorage.setItem('welcome-popup-seen', '1')
      sessionStorage.setItem('splash-seen', '1')
    })
    const page = await context.newPage()
    await page.goto('/auth?mode=sign-up')
    await page.locator('main').getByLabel(en.auth.email).fill(email)
    await page.locator('main').getByLabel(en.auth.password).fill('correct horse 1')
    await page.locator('main form').getByRole('button', { name: en.auth.sign_up }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await page.goto('/about')
    await page.locator('header details[data-account] > summary').click()
    expect(await page.locator('header').getByText(email).filter({ visible: true }).count()).toBe(1)

    // the account lives in the other service's database, and its key signed the token
    const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]))
    const token = cookies['sb-access-token']
    expect(decodeJwt(token)).toMatchObject({ iss: `${service}/auth/v1`, email })
    const jwks = (await (await fetch(`${service}/auth/v1/.well-known/jwks.json`)).json()) as {
      keys: { kid: string }[]
    }
    expect(jwks.keys.map((k) => k.kid)).toContain(decodeProtectedHeader(token).kid)
    const user = await fetch(`${service}/auth/v1/user`, {
      headers: { Authorization: `Bearer ${token}` },
    })
    expect(((await user.json()) as { email: string }).email).toBe(email)

    // signing out on the site ends the session at the service
    await page
      .locator('header')
      .getByRole('button', { name: en.auth.sign_out, exact: true })
      .filter({ visible: true })
      .click()
    await page.waitForSelector('header a[href="/auth"]')
    expect(
      (
        await fetch(`${service}/auth/v1/user`, {
          headers: { Authorization: `Bearer ${token}` },
        })
      ).status,
      // GoTrue's answer for a token whose session has ended: 403 session_not_found
    ).toBe(403)

    // and signing back in works the same way
    await page.goto('/auth')
    await page.locator('main').getByLabel(en.auth.email).fill(email)
    await page.locator('main').getByLabel(en.auth.password).fill('correct horse 1')
    await page.locator('main form').getByRole('button', { name: en.nav.sign_in }).click()
    await page.waitForURL((url) => url.pathname === '/')
    expect(await page.locator('header details[data-account]').count()).toBe(1)
    await context.close()
  })
})
