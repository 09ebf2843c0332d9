import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import en from '../../locales/en.json'
import type { Role } from '../../worker/roles'
import { codeFor } from '../totp'
import { query } from './d1'

const t = en

/**
 * A staff member as the agency makes one, signed in to the desk in `page`: signs up, gets the
 * role (an Admin unless named: what `npm run staff -- add` does), adds an authenticator app,
 * signs out and signs in again with the password and a code. Returns their address.
 */
export async function signInStaff(page: Page, role: Role = 'admin') {
  const staff = `e2e-staff-${crypto.randomUUID().slice(0, 6)}@example.org`
  await page.goto('/auth?mode=sign-up')
  await page.locator('main').getByLabel(t.auth.email).fill(staff)
  await page.locator('main').getByLabel(t.auth.password).fill('correct horse 1')
  await page.locator('main form').getByRole('button', { name: t.auth.sign_up }).click()
  await page.waitForURL((url) => url.pathname === '/')
  await query(
    `UPDATE auth_users SET app_metadata = json_set(app_metadata, '$.role', '${role}') WHERE email = '${staff}'`,
  )
  // without the second factor the desk does not exist
  expect((await page.goto('/desk'))!.status()).toBe(404)
  await page.goto('/account')
  await page.getByRole('button', { name: t.auth.mfa_add }).click()
  const secret = (await page.locator('[data-secret]').textContent())!.replace(/\s/g, '')
  await page.getByLabel(t.auth.mfa_code).fill(codeFor(secret))
  await page.getByRole('button', { name: t.auth.mfa_confirm }).click()
  // staff already: the app's first code opens the desk
  await page.waitForURL((url) => url.pathname.startsWith('/desk'))
  await page.goto('/account')
  await page.locator('main').getByRole('button', { name: t.auth.sign_out, exact: true }).click()
  await page.waitForURL((url) => url.pathname === '/')
  await page.goto('/auth?next=/desk')
  await page.locator('main').getByLabel(t.auth.email).fill(staff)
  await page.locator('main').getByLabel(t.auth.password).fill('correct horse 1')
  await page.locator('main form').getByRole('button', { name: t.nav.sign_in }).click()
  await page.waitForURL(/mode=mfa/)
  await page.getByLabel(t.auth.mfa_code).fill(codeFor(secret, 1))
  await page.getByRole('button', { name: t.auth.mfa_verify }).click()
  // /desk, or the first section of a role without leads (it sends on)
  await page.waitForURL((url) => url.pathname.startsWith('/desk') || url.pathname === '/')
  expect((await page.goto('/desk'))!.status()).toBe(200)
  return staff
}
