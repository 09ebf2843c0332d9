import { env } from 'cloudflare:test'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import de from '../../../locales/de.json'
import en from '../../../locales/en.json'
import { setRoleIf, swapOwner } from '../../../worker/auth-service/db'
import { logExpiredInvitations } from '../../../worker/db/team'
import { unique } from '../auth/helpers'
import { lastMail } from '../inbox'
import { textOf } from '../privacy/helpers'
import { get, person, post } from './helpers'

// The team page and its invitations (issue 58): an Owner and an Admin invite, the invitation's
// link signs in or makes an account for its address only, then the desk waits for a second
// factor; links that were used, revoked, replaced or are past their seven days are refused with a
// page that says so; roles change and members go at their next request; ownership is handed to
// an Admin only. In a workerd of its own (vitest.worker.config.ts ISOLATED): its Owner must be the
// site's only one.

const PASSWORD = 'correct horse 1'
const DAY = 86_400_000

let owner: { email: string; cookie: string }
let admin: { email: string; cookie: string }

beforeAll(async () => {
  owner = await person({ staff: 'owner', secondFactor: true })
  admin = await person({ staff: 'admin', secondFactor: true })
}, 120_000)

afterEach(() => {
  vi.useRealTimers()
})

/** Invites the address from the team page; the link the e-mail carries. */
async function invite(
  by: { cookie: string },
  email: string,
  role: string,
  language = 'en',
  count = 1,
) {
  const res = await post('/desk/team/invitations', { email, role, language }, by.cookie)
  expect(res.status, await res.clone().text()).toBe(303)
  expect(res.headers.get('Location')).toBe('/desk/team?done=invited')
  return linkOf(email, count)
}

async function linkOf(email: string, count = 1) {
  const mail = await lastMail(email, count)
  const url = mail.body_text.match(/https:\/\/example\.com\/join\?[^\s]+/)?.[0]
  expect(url, mail.body_text).toBeDefined()
  return {
    path: url!.replace('https://example.com', ''),
    mail,
    token: new URL(url!).searchParams.get('token')!,
  }
}

const roleOf = async (email: string) =>
  (
    await env.DB.prepare(
      "SELECT json_extract(app_metadata, '$.role') AS role FROM auth_users WHERE email = ?",
    )
      .bind(email)
      .first<{ role: string | null }>()
  )?.role ?? null

const history = async (action: string) =>
  (
    await env.DB.prepare('SELECT * FROM desk_audit WHERE action = ? ORDER BY id')
      .bind(action)
      .all<{ actor_email: string; target: string | null; detail: string }>()
  ).results

/** Signs up through the link's "I'm new here" form; the answer. */
const joinAsNew = (token: string, password = PASSWORD) =>
  post('/join', { token, intent: 'sign-up', password })

describe('the team page', { timeout: 180_000 }, () => {
  it('lists the members as the auth service has them: role, since, last seen, second factor', async () => {
    const res = await get('/desk/team', owner.cookie)
    expect(res.status).toBe(200)
    const text = textOf(await res.text())
    expect(text).toContain(owner.email)
    expect(text).toContain(admin.email)
    expect(text).toContain(en.desk_team.roles.owner)
    expect(text).toContain(en.desk_team.factor_set)
    // the Owner's visit just now was seen; the Admin has not opened the desk yet
    const cardOf = (email: string) =>
      text.split(en.desk_team.since).find((_, i, all) => all[i - 1]?.includes(email)) ?? ''
    expect(cardOf(owner.email)).not.toContain(en.desk_team.never_seen)
    expect(cardOf(admin.email)).toContain(en.desk_team.never_seen)
    // the bar has the team for the Owner, not for an Editor, who is refused the page
    const editor = await person({ staff: 'editor', secondFactor: true })
    expect((await get('/desk/team', editor.cookie)).status).toBe(404)
    expect(
      (
        await post(
          '/desk/team/invitations',
          { email: unique('x'), role: 'admin', language: 'en' },
          editor.cookie,
        )
      ).status,
    ).toBe(403)
  })

  it('invites by e-mail in the chosen language; the link makes an account for that address only, then asks for an authenticator app', async () => {
    const email = unique('new-editor')
    const { mail, token, path } = await invite(admin, email, 'editor', 'de')
    // the e-mail is in German, and says who invited, as what, for how long
    expect(mail.subject).toBe(de.mail.team_invite_subject.replace('{{site}}', de.meta.site_name))
    expect(mail.body_text).toContain(admin.email)
    expect(mail.body_text).toContain('7')
    // only the token's hash is kept
    const row = await env.DB.prepare('SELECT token_hash FROM desk_invitations WHERE email = ?')
      .bind(email)
      .first<{ token_hash: string }>()
    expect(row!.token_hash).not.toContain(token)
    expect(row!.token_hash).toMatch(/^[0-9a-f]{64}$/)
    // the team page lists it, open
    expect(textOf(await (await get('/desk/team', owner.cookie)).text())).toContain(email)

    const page = await get(path)
    expect(page.status).toBe(200)
    expect(page.headers.get('Referrer-Policy')).toBe('no-referrer')
    const html = await page.text()
    expect(html).toContain(email)
    // in the language the invitation was written in
    expect(textOf(html)).toContain(de.desk_team.join.sign_up_title)

    // a password the service's own rule refuses: said, and the link still works
    const weak = await joinAsNew(token, 'short')
    expect(weak.status).toBe(422)
    expect(textOf(await weak.text())).toContain(en.auth.errors.weak_password)
    expect(await roleOf(email)).toBeNull()
    const joined = await joinAsNew(token)
    expect(joined.status).toBe(303)
    expect(joined.headers.get('Location')).toBe('/account#mfa')
    // an account, its address confirmed by the link, with the role
    expect(await roleOf(email)).toBe('editor')
    const account = await env.DB.prepare(
      'SELECT email_confirmed_at FROM auth_users WHERE email = ?',
    )
      .bind(email)
      .first<{ email_confirmed_at: string | null }>()
    expect(account!.email_confirmed_at).not.toBeNull()
    // signed in, and the desk waits for the second factor
    const cookie = joined.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    expect((await get('/desk/visits', cookie)).status).toBe(404)
    // in the history: sent and accepted
    expect((await history('team.invite')).some((r) => r.detail.includes(email))).toBe(true)
    expect((await history('team.invite_accept')).some((r) => r.actor_email === email)).toBe(true)

    // the link worked once
    const again = await get(path)
    expect(again.status).toBe(410)
    expect(textOf(await again.text())).toContain(de.desk_team.join.used_title)
    expect((await joinAsNew(token)).status).toBe(410)
  })

  it('signs in an existing account of the invited address, which takes the role; a second factor already set opens the desk after its code', async () => {
    const customer = await person({ staff: false, secondFactor: true })
    const { token } = await invite(owner, customer.email, 'sales')
    const wrong = await post('/join', { token, intent: 'sign-in', password: 'not the password' })
    expect(wrong.status).toBe(422)
    expect(textOf(await wrong.text())).toContain(en.auth.errors.invalid_credentials)
    expect(await roleOf(customer.email)).toBeNull()
    const res = await post('/join', { token, intent: 'sign-in', password: PASSWORD })
    expect(res.status).toBe(303)
    // the code step first (the tokens of the password alone never become the session)
    expect(res.headers.get('Location')).toBe('/auth?mode=mfa')
    expect(await roleOf(customer.email)).toBe('sales')
    // the account's sessions from before the invitation ended: none of them inherits the role
    const before = await get('/account', customer.cookie)
    expect(before.status).toBe(303)
    expect(before.headers.get('Location')).toContain('/auth')
    expect((await get('/desk/bookings', customer.cookie)).status).toBe(404)
  })

  it('lets the invited address, signed in already with its code, join with one press and opens the desk', async () => {
    const customer = await person({ staff: false, secondFactor: true })
    const { path, token } = await invite(owner, customer.email, 'sales')
    const page = await get(path, customer.cookie)
    expect(page.status).toBe(200)
    expect(textOf(await page.text())).toContain(
      en.desk_team.join.accept_button.replace('{{role}}', en.desk_team.roles.sales),
    )
    const joined = await post('/join', { token, intent: 'accept' }, customer.cookie)
    expect(joined.status).toBe(303)
    expect(joined.headers.get('Location')).toBe('/desk')
    // the session's new token carries the role: the desk opens with it
    const cookie = joined.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    expect((await get('/desk/bookings', cookie)).status).toBe(200)
    expect((await get(path, cookie)).status).toBe(410)
  })

  it('refuses a link opened by another signed-in account, with a page that says why', async () => {
    const email = unique('invitee')
    const { path } = await invite(owner, email, 'writer')
    const other = await person({ staff: false, secondFactor: false })
    const res = await get(path, other.cookie)
    expect(res.status).toBe(403)
    const text = textOf(await res.text())
    expect(text).toContain(en.desk_team.join.other_title)
    expect(text).toContain(other.email)
    // and its form refuses it too
    const token = new URL(path, 'https://x').searchParams.get('token')!
    const posted = await post('/join', { token, intent: 'accept' }, other.cookie)
    expect(posted.status).toBe(403)
    expect(await roleOf(other.email)).toBeNull()
  })

  it('revokes a link at once, and a resent invitation replaces the old link', async () => {
    const email = unique('revoked')
    const first = await invite(owner, email, 'editor')
    const id = (await env.DB.prepare('SELECT id FROM desk_invitations WHERE email = ?')
      .bind(email)
      .first<number>('id'))!
    const resent = await post(`/desk/team/invitations/${id}/resend`, {}, owner.cookie)
    expect(resent.headers.get('Location')).toBe('/desk/team?done=resent')
    const second = await linkOf(email, 2)
    expect(second.token).not.toBe(first.token)
    const old = await get(first.path)
    expect(old.status).toBe(404)
    expect(textOf(await old.text())).toContain(en.desk_team.join.invalid_title)
    expect((await get(second.path)).status).toBe(200)

    const revoked = await post(`/desk/team/invitations/${id}/revoke`, {}, admin.cookie)
    expect(revoked.headers.get('Location')).toBe('/desk/team?done=revoked')
    const page = await get(second.path)
    expect(page.status).toBe(410)
    expect(textOf(await page.text())).toContain(en.desk_team.join.revoked_title)
    expect((await joinAsNew(second.token)).status).toBe(410)
    expect(await roleOf(email)).toBeNull()
    expect((await history('team.invite_revoke')).some((r) => r.detail.includes(email))).toBe(true)
  })

  it('refuses a link past its seven days (by the test clock), lists it as expired, and writes the expiry in the history', async () => {
    const email = unique('late')
    const { path, token } = await invite(owner, email, 'editor')
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 7 * DAY + 60_000 })
    const page = await get(path)
    expect(page.status).toBe(410)
    expect(textOf(await page.text())).toContain(en.desk_team.join.expired_title)
    expect((await joinAsNew(token)).status).toBe(410)
    expect(textOf(await (await get('/desk/team', owner.cookie)).text())).toMatch(
      new RegExp(`${email}.*Expired on`),
    )
    expect(await logExpiredInvitations(env.DB)).toBeGreaterThanOrEqual(1)
    // once, however often the cron runs
    await logExpiredInvitations(env.DB)
    const rows = (await history('team.invite_expire')).filter((r) => r.detail.includes(email))
    expect(rows).toHaveLength(1)
    // (the queue's broker does not run on a moved clock: the rest on the real one, with the
    // invitation's week over by its row)
    vi.useRealTimers()
    await env.DB.prepare(
      "UPDATE desk_invitations SET expires_at = '2000-01-01T00:00:00.000Z' WHERE email = ?",
    )
      .bind(email)
      .run()
    // inviting the address again renews the invitation: a new link, seven days from then
    const renewed = await invite(owner, email, 'sales', 'en', 2)
    expect((await get(renewed.path)).status).toBe(200)
    expect((await get(path)).status).toBe(404)
  })

  it('refuses an invitation to a member, a second open one, and bad input, keeping what was typed', async () => {
    const dup = await post(
      '/desk/team/invitations',
      { email: admin.email, role: 'editor', language: 'en' },
      owner.cookie,
    )
    expect(dup.status).toBe(409)
    expect(textOf(await dup.text())).toContain(en.desk_team.errors.already_member)
    const email = unique('twice')
    const first = await post(
      '/desk/team/invitations',
      { email, role: 'writer', language: 'en' },
      owner.cookie,
    )
    expect(first.headers.get('Location')).toBe('/desk/team?done=invited')
    const twice = await post(
      '/desk/team/invitations',
      { email, role: 'writer', language: 'en' },
      owner.cookie,
    )
    expect(twice.status).toBe(409)
    const bad = await post(
      '/desk/team/invitations',
      { email: 'not an address', role: 'owner', language: 'xx' },
      owner.cookie,
    )
    expect(bad.status).toBe(422)
    const html = await bad.text()
    expect(textOf(html)).toContain(en.desk_team.errors.invalid_invite)
    expect(html).toContain('value="not an address"')
    // nobody is invited as the Owner
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM desk_invitations WHERE role = 'owner'").first(
        'n',
      ),
    ).toBe(0)
  })

  it("changes a role and removes a member, each at that member's next request; the Owner cannot be changed, nor anyone themselves", async () => {
    const member = await person({ staff: 'sales', secondFactor: true })
    const id = (await env.DB.prepare('SELECT id FROM auth_users WHERE email = ?')
      .bind(member.email)
      .first<string>('id'))!
    expect((await get('/desk/bookings', member.cookie)).status).toBe(200)
    expect((await get('/desk/speed', member.cookie)).status).toBe(404)
    const changed = await post(`/desk/team/members/${id}/role`, { role: 'editor' }, admin.cookie)
    expect(changed.headers.get('Location')).toBe('/desk/team?done=role')
    // the same cookie, its token minted as Sales: the live role decides
    expect((await get('/desk/bookings', member.cookie)).status).toBe(404)
    expect((await get('/desk/speed', member.cookie)).status).toBe(200)
    const change = (await history('team.role')).find((r) => r.target === `member/${id}`)!
    expect(JSON.parse(change.detail)).toMatchObject({ from: 'sales', to: 'editor' })

    const removed = await post(`/desk/team/members/${id}/remove`, {}, admin.cookie)
    expect(removed.headers.get('Location')).toBe('/desk/team?done=removed')
    expect((await get('/desk/speed', member.cookie)).status).toBe(404)
    expect(await roleOf(member.email)).toBeNull()
    expect(textOf(await (await get('/desk/team', owner.cookie)).text())).not.toContain(member.email)

    const ownerId = (await env.DB.prepare('SELECT id FROM auth_users WHERE email = ?')
      .bind(owner.email)
      .first<string>('id'))!
    const demote = await post(`/desk/team/members/${ownerId}/role`, { role: 'admin' }, admin.cookie)
    expect(demote.headers.get('Location')).toBe('/desk/team?error=owner_fixed')
    const remove = await post(`/desk/team/members/${ownerId}/remove`, {}, admin.cookie)
    expect(remove.headers.get('Location')).toBe('/desk/team?error=owner_fixed')
    const self = await post(`/desk/team/members/${ownerId}/remove`, {}, owner.cookie)
    expect(self.headers.get('Location')).toBe('/desk/team?error=not_yourself')
    expect(await roleOf(owner.email)).toBe('owner')
    // an Admin cannot hand ownership over (not theirs), nor promote anyone to Owner
    const adminId = (await env.DB.prepare('SELECT id FROM auth_users WHERE email = ?')
      .bind(admin.email)
      .first<string>('id'))!
    expect((await post('/desk/team/ownership', { user_id: adminId }, admin.cookie)).status).toBe(
      403,
    )
    const promote = await post(
      `/desk/team/members/${ownerId}/role`,
      { role: 'owner' },
      admin.cookie,
    )
    expect(promote.headers.get('Location')).toBe('/desk/team?error=invalid_change')
  })

  it('hands ownership to an Admin only; the Owner becomes an Admin', async () => {
    const editor = await person({ staff: 'editor', secondFactor: true })
    const idOf = async (email: string) =>
      (await env.DB.prepare('SELECT id FROM auth_users WHERE email = ?')
        .bind(email)
        .first<string>('id'))!
    const toEditor = await post(
      '/desk/team/ownership',
      { user_id: await idOf(editor.email) },
      owner.cookie,
    )
    expect(toEditor.headers.get('Location')).toBe('/desk/team?error=owner_needs_admin')
    const handed = await post(
      '/desk/team/ownership',
      { user_id: await idOf(admin.email) },
      owner.cookie,
    )
    expect(handed.headers.get('Location')).toBe('/desk/team?done=ownership')
    expect(await roleOf(admin.email)).toBe('owner')
    expect(await roleOf(owner.email)).toBe('admin')
    expect((await history('team.ownership')).at(-1)!.actor_email).toBe(owner.email)
    // and back, by the new Owner
    const back = await post(
      '/desk/team/ownership',
      { user_id: await idOf(owner.email) },
      admin.cookie,
    )
    expect(back.headers.get('Location')).toBe('/desk/team?done=ownership')
    expect(await roleOf(owner.email)).toBe('owner')
  })

  it('hands ownership over in one transaction, or not at all; changes a role only from the role it was decided on', async () => {
    const a = await person({ staff: 'admin', secondFactor: false })
    const e = await person({ staff: 'editor', secondFactor: false })
    const idOf = async (email: string) =>
      (await env.DB.prepare('SELECT id FROM auth_users WHERE email = ?')
        .bind(email)
        .first<string>('id'))!
    const [ownerId, adminId, editorId] = [
      await idOf(owner.email),
      await idOf(a.email),
      await idOf(e.email),
    ]
    // to an Editor (an Admin demoted meanwhile): undone, the Owner still the Owner
    expect(await swapOwner(env.DB, ownerId, editorId)).toBe(false)
    expect(await roleOf(owner.email)).toBe('owner')
    expect(await roleOf(e.email)).toBe('editor')
    // from someone not the Owner: nothing
    expect(await swapOwner(env.DB, adminId, editorId)).toBe(false)
    expect(await roleOf(a.email)).toBe('admin')
    // a change decided on a role that moved meanwhile: refused
    expect(await setRoleIf(env.DB, editorId, 'admin', 'sales')).toBe(false)
    expect(await roleOf(e.email)).toBe('editor')
    expect(await setRoleIf(env.DB, editorId, 'editor', null)).toBe(true)
    expect(await roleOf(e.email)).toBeNull()
    // an invitation's number too long for the table: refused as closed, never a 500
    const long = await post('/desk/team/invitations/99999999999999999999/resend', {}, owner.cookie)
    expect(long.headers.get('Location')).toBe('/desk/team?error=invitation_closed')
  })

  it('writes a desk sign-in to the history once per session', async () => {
    const member = await person({ staff: 'editor', secondFactor: true })
    await get('/desk/visits', member.cookie)
    await get('/desk/content', member.cookie)
    await vi.waitFor(
      async () => {
        const rows = (await history('desk.sign_in')).filter((r) => r.actor_email === member.email)
        expect(rows).toHaveLength(1)
      },
      { timeout: 30_000 },
    )
  })
})
