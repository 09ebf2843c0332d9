import type { Cookie, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Lang } from '../../client/lib/languages'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import { codeFor } from '../totp'
import { seriousViolationsOn } from './axe'
import { PHONE, useBrowser } from './browser'
import { query } from './d1'
import { mailTo } from './inbox'
import { signInStaff } from './staff'

// The team as the agency builds it, on a phone, in English and in Arabic (issue 58): the Owner
// invites an Editor and a Sales member; each accepts from the e-mail in the mail catcher, makes
// an account and adds an authenticator app; each sees only their part of the desk and is refused
// the rest by address; the Owner removes the Sales member, whose open tab is refused at its next
// click.

const { open } = useBrowser()
const DICTS = { en, ar } as const

/** The path of the invitation's link in the e-mail delivered to `to`. */
async function invitationLink(to: string) {
  const mail = await mailTo(to)
  const url = mail.text!.match(/https?:\/\/\S+\/join\?token=\S+/)?.[0]
  expect(url, mail.text).toBeDefined()
  return { url: new URL(url!), mail }
}

/** The bar's sections, as the member sees them. */
const barLinks = (page: Page, d: typeof en) =>
  page.getByRole('navigation', { name: d.desk.eyebrow }).getByRole('link').allTextContents()

/** The Owner's session, made once: the site has one Owner, whom both languages' tests share. */
let ownerCookies: Cookie[]
beforeAll(async () => {
  // the site's one Owner is this file's (another's is an Admin now)
  await query(
    "UPDATE auth_users SET app_metadata = json_set(app_metadata, '$.role', 'admin') WHERE json_extract(app_metadata, '$.role') = 'owner'",
  )
  const page = await open('/auth?mode=sign-up', { viewport: PHONE })
  await signInStaff(page, 'owner')
  ownerCookies = await page.context().cookies()
  await page.context().close()
}, 120_000)

// the two languages at once (their own invitees, the Owner's session in a tab of each)
describe.concurrent.each(['en', 'ar'] as const)(
  'the team, on a phone (%s)',
  (lang: Lang & keyof typeof DICTS) => {
    const d = DICTS[lang]

    it('the Owner invites an Editor and Sales; each joins with an authenticator app, sees only their part, and Sales, removed, is refused at the next click', async ({
      expect,
    }) => {
      const owner = await open('/', { viewport: PHONE })
      await owner.context().addCookies(ownerCookies)
      await owner.goto(`/desk/team?lang=${lang}`)
      await expect
        .poll(() => owner.locator('html').getAttribute('dir'))
        .toBe(lang === 'ar' ? 'rtl' : 'ltr')

      const tag = crypto.randomUUID().slice(0, 6)
      const invitees = {
        editor: `e2e-team-editor-${tag}@example.org`,
        sales: `e2e-team-sales-${tag}@example.org`,
      }
      for (const [role, email] of Object.entries(invitees)) {
        await owner.getByLabel(d.desk_team.email).fill(email)
        await owner.getByLabel(d.desk_team.role, { exact: true }).selectOption(role)
        await owner.getByLabel(d.desk_team.language).selectOption(lang)
        await owner.getByRole('button', { name: d.desk_team.invite_button }).click()
        await expect
          .poll(() =>
            owner.getByRole('status').filter({ hasText: d.desk_team.done.invited }).count(),
          )
          .toBe(1)
      }
      // both listed as invited, the page fits the phone, and axe finds nothing serious
      const list = owner.locator('#invitations-title').locator('..')
      for (const email of Object.values(invitees))
        await expect.poll(() => list.getByText(email).count()).toBe(1)
      expect(await owner.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(
        true,
      )
      expect(await seriousViolationsOn(owner, [`/desk/team?lang=${lang}`])).toEqual([])

      const members: Record<keyof typeof invitees, Page> = {} as never
      for (const [role, email] of Object.entries(invitees) as [keyof typeof invitees, string][]) {
        const { url, mail } = await invitationLink(email)
        // in the language the Owner chose
        expect(mail.subject).toBe(d.mail.team_invite_subject.replace('{{site}}', d.meta.site_name))
        const page = await open(url.pathname + url.search, { viewport: PHONE })
        expect(await page.locator('html').getAttribute('lang')).toBe(lang)
        await page.getByLabel(d.auth.new_password).fill('correct horse 1')
        await page.getByRole('button', { name: d.desk_team.join.sign_up_button }).click()
        // the desk waits for an authenticator app
        await page.waitForURL((u) => u.pathname === '/account')
        await page.getByRole('button', { name: d.auth.mfa_add }).click()
        const secret = (await page.locator('[data-secret]').textContent())!.replace(/\s/g, '')
        await page.getByLabel(d.auth.mfa_code).fill(codeFor(secret))
        await page.getByRole('button', { name: d.auth.mfa_confirm }).click()
        await page.waitForURL((u) => u.pathname.startsWith('/desk'))
        members[role] = page
      }

      // each sees only their part of the desk
      const { editor, sales } = members
      expect(await barLinks(editor, d)).toEqual([
        d.desk.nav.visits,
        d.desk.nav.speed,
        d.desk.nav.content,
        d.desk.nav.newsletters,
        d.desk.nav.experiments,
      ])
      expect(await barLinks(sales, d)).toEqual([
        d.desk.nav.leads,
        d.desk.nav.bookings,
        d.desk.nav.mail,
        d.desk.nav.visits,
      ])
      // and is refused the rest by address: the not-found page, or 403 for the CSV
      for (const path of ['/desk/team', '/desk/bookings', '/desk/history'])
        expect((await editor.goto(path))!.status(), `editor ${path}`).toBe(404)
      expect((await editor.goto('/desk/leads.csv'))!.status()).toBe(403)
      await editor.goto('/desk/team')
      expect(await editor.getByRole('heading', { level: 1 }).textContent()).toBe(d.not_found.title)
      for (const path of ['/desk/team', '/desk/content', '/desk/newsletters'])
        expect((await sales.goto(path))!.status(), `sales ${path}`).toBe(404)
      await sales.goto('/desk')

      // the Owner removes Sales
      await owner.goto('/desk/team')
      const card = owner.getByRole('listitem').filter({ hasText: invitees.sales })
      await card.getByText(d.desk_team.remove, { exact: true }).click()
      await card
        .getByRole('button', {
          name: d.desk_team.remove_button.replace('{{email}}', `\u2068${invitees.sales}\u2069`),
        })
        .click()
      await expect
        .poll(() => owner.getByRole('status').filter({ hasText: d.desk_team.done.removed }).count())
        .toBe(1)
      expect(await owner.getByRole('listitem').filter({ hasText: invitees.sales }).count()).toBe(0)

      // Sales's tab, open on the leads: the next click is refused
      const [refused] = await Promise.all([
        sales.waitForResponse((r) => new URL(r.url()).pathname === '/desk/bookings'),
        sales.getByRole('link', { name: d.desk.nav.bookings, exact: true }).click(),
      ])
      expect(refused.status()).toBe(404)
      await expect
        .poll(() => sales.getByRole('heading', { level: 1 }).textContent())
        .toBe(d.not_found.title)
      // the Editor works on
      expect((await editor.goto('/desk/content'))!.status()).toBe(200)
    })
  },
)
