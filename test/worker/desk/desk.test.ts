import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import en from '../../../locales/en.json'
import { csvCell } from '../../../worker/desk/csv'
import { SITE, unique } from '../auth/helpers'
import { get, person, post } from './helpers'
import { delivered } from '../mail/helpers'
import app from '../../../worker/index'

// The agency's desk: only staff with a second factor get in; what they do is audited.

/** A signed-in visitor's cookies, from a session of the official client. */

async function someLead() {
  const email = unique('lead')
  await env.DB.prepare(
    `INSERT INTO contact_messages (name, email, service, message, language) VALUES (?, ?, 'amazon', ?, 'en')`,
  )
    .bind('=HYPERLINK("http://evil.example","click")', email, '+1 call me, @once')
    .run()
  const row = await env.DB.prepare('SELECT id FROM contact_messages WHERE email = ?')
    .bind(email)
    .first<{ id: number }>()
  return { email, id: row!.id }
}

describe('who gets in', { timeout: 60_000 }, () => {
  it('refuses a visitor, a signed-in non-staff user and staff without aal2, on every desk route', async () => {
    const { id } = await someLead()
    const visitors = [
      undefined,
      (await person({ staff: false, secondFactor: true })).cookie,
      (await person({ staff: true, secondFactor: false })).cookie,
    ]
    for (const cookie of visitors) {
      for (const path of ['/desk', `/desk/leads/contact/${id}`, '/desk?kind=contact']) {
        const res = await get(path, cookie)
        expect(res.status, path).toBe(404)
        expect(await res.text()).toContain(en.not_found.title)
      }
      expect((await get('/desk/leads.csv', cookie)).status).toBe(403)
      const marked = await post(`/desk/leads/contact/${id}`, { handled: '1' }, cookie)
      expect(marked.status).toBe(403)
    }
    const marks = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM lead_marks WHERE kind = 'contact' AND lead_id = ?",
    )
      .bind(id)
      .first<{ n: number }>()
    expect(marks!.n).toBe(0)
  })

  it('refuses a token still valid once its session is revoked or the staff role removed', async () => {
    for (const undo of [
      `UPDATE auth_sessions SET revoked_at = 'now'
       WHERE user_id = (SELECT id FROM auth_users WHERE email = ?)`,
      `UPDATE auth_users SET app_metadata = '{}' WHERE email = ?`,
    ]) {
      const staff = await person({ staff: true, secondFactor: true })
      expect((await get('/desk', staff.cookie)).status).toBe(200)
      await env.DB.prepare(undo).bind(staff.email).run()
      expect((await get('/desk', staff.cookie)).status).toBe(404)
      expect((await get('/desk/leads.csv', staff.cookie)).status).toBe(403)
    }
  })

  it('lets staff with a second factor read, mark, note and export; each action is audited', async () => {
    const staff = await person({ staff: true, secondFactor: true })
    const lead = await someLead()
    const inbox = await get(`/desk?kind=contact&q=${encodeURIComponent(lead.email)}`, staff.cookie)
    expect(inbox.status).toBe(200)
    expect(inbox.headers.get('Cache-Control')).toBe('no-store')
    const html = await inbox.text()
    expect(html).toContain(lead.email)
    expect(html).toContain('<meta name="robots" content="noindex"/>')

    const detail = await get(`/desk/leads/contact/${lead.id}`, staff.cookie)
    expect(detail.status).toBe(200)
    const marked = await post(
      `/desk/leads/contact/${lead.id}`,
      { handled: '1', note: 'Called back on Tuesday' },
      staff.cookie,
    )
    expect(marked.status).toBe(303)
    expect(
      await (
        await get(`/desk?status=handled&q=${encodeURIComponent(lead.email)}`, staff.cookie)
      ).text(),
    ).toContain(lead.email)
    expect(
      await (
        await get(`/desk?status=open&q=${encodeURIComponent(lead.email)}`, staff.cookie)
      ).text(),
    ).toContain(en.desk.none)

    const csv = await get(`/desk/leads.csv?q=${encodeURIComponent(lead.email)}`, staff.cookie)
    expect(csv.status).toBe(200)
    expect(csv.headers.get('Content-Type')).toMatch(/^text\/csv/)
    const text = await csv.text()
    // a spreadsheet would run these as formulas: each starts with an apostrophe instead
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`)
    expect(text).toContain(`"'+1 call me, @once"`)
    expect(text).toContain('Called back on Tuesday')

    const log = await env.DB.prepare(
      'SELECT action, target FROM desk_audit WHERE actor_email = ? ORDER BY id',
    )
      .bind(staff.email)
      .all<{ action: string; target: string | null }>()
    // (the first desk page of the session is its desk sign-in, written after the answer)
    expect(log.results.filter((r) => r.action !== 'desk.sign_in')).toEqual([
      { action: 'lead.mark', target: `contact/${lead.id}` },
      { action: 'leads.export', target: null },
    ])
    expect(log.results.filter((r) => r.action === 'desk.sign_in')).toEqual([
      { action: 'desk.sign_in', target: null },
    ])
  })
})

describe('the search', { timeout: 60_000 }, () => {
  it('finds a lead by any part of its name or address, in any case, and follows changes', async () => {
    const staff = await person({ staff: true, secondFactor: true })
    const lead = await someLead()
    const tag = lead.email.slice(5, 13) // the random part of the address
    await env.DB.prepare('UPDATE contact_messages SET name = ? WHERE id = ?')
      .bind(`Zélie Quartermain ${tag}`, lead.id)
      .run()
    const found = async (q: string, filter = '') =>
      (
        await (await get(`/desk?q=${encodeURIComponent(q)}${filter}`, staff.cookie)).text()
      ).includes(`/desk/leads/contact/${lead.id}"`)
    // the middle of the address, of the name; any case; one or two characters too
    expect(await found(tag.toUpperCase())).toBe(true)
    expect(await found('artermain ' + tag)).toBe(true)
    expect(await found('ZÉLIE QUARTERMAIN')).toBe(true)
    expect(await found('é', '&kind=contact')).toBe(true)
    expect(await found(`${tag}x`)).toBe(false)
    // FTS5's syntax and LIKE's wildcards are only text
    for (const q of ['"', 'a"b OR c*', '%%%', 'NEAR(x y)', '_'])
      expect((await get(`/desk?q=${encodeURIComponent(q)}`, staff.cookie)).status).toBe(200)
    expect(await found('%')).toBe(false)
    // a new name replaces the old one in the index; a lead erased is gone from it
    await env.DB.prepare('UPDATE contact_messages SET name = ? WHERE id = ?')
      .bind(`Renamed ${tag}`, lead.id)
      .run()
    expect(await found('Quartermain')).toBe(false)
    expect(await found(`renamed ${tag}`)).toBe(true)
    await env.DB.prepare('DELETE FROM contact_messages WHERE id = ?').bind(lead.id).run()
    expect(await found(tag)).toBe(false)
  })
})

describe('the CSV export', () => {
  it("shows staff their own bar: no visitors' overlays, and no trackers even when configured", async () => {
    const staff = await person({ staff: true, secondFactor: true })
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request(`${SITE}/desk`, {
        headers: { Cookie: `${staff.cookie}; tracking-consent=granted` },
      }),
      { ...env, GA_MEASUREMENT_ID: 'G-TEST123' },
      ctx,
    )
    const html = await res.text()
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-render')).toBe('bypass')
    expect(html).toContain(staff.email)
    expect(html).toContain('action="/auth/sign-out"')
    for (const visitorsOnly of [
      'wa.me/',
      'id="booking-dialog"',
      'id="welcome-popup"',
      'id="consult-widget"',
      'id="splash"',
      'data-trackers',
      '<footer',
    ])
      expect(html).not.toContain(visitorsOnly)
  })

  it('neutralises formulas and quotes what needs quoting', () => {
    for (const danger of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])
      expect(csvCell(danger).replace(/^"/, '').startsWith("'")).toBe(true)
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell(null)).toBe('')
    expect(csvCell('plain')).toBe('plain')
  })
})

describe('the outbox', { timeout: 60_000 }, () => {
  it('shows failed e-mails and sends one again; a one-time code is never resent', async () => {
    const staff = await person({ staff: true, secondFactor: true })
    const to = unique('resend')
    const failed = await env.DB.prepare(
      `INSERT INTO mail_outbox (kind, data, category, language, to_address, site_url, subject, status, attempts, last_error)
       VALUES ('guide', ?, 'transactional', 'en', ?, ?, 'Your guide', 'failed', 7, 'provider down') RETURNING id`,
    )
      .bind(JSON.stringify({ name: 'Ada', guide: 'conversion-masterclass' }), to, SITE)
      .first<{ id: number }>()
    const code = await env.DB.prepare(
      `INSERT INTO mail_outbox (kind, data, category, language, to_address, site_url, subject, status, attempts, last_error)
       VALUES ('auth_magic_link', '{}', 'transactional', 'en', ?, ?, 'Sign in', 'failed', 7, 'provider down') RETURNING id`,
    )
      .bind(to, SITE)
      .first<{ id: number }>()

    const page = await (await get('/desk/mail?status=failed', staff.cookie)).text()
    expect(page).toContain('provider down')
    expect(page).toContain(`action="/desk/mail/${failed!.id}/resend"`)
    expect(page).not.toContain(`action="/desk/mail/${code!.id}/resend"`)

    expect((await post(`/desk/mail/${code!.id}/resend`, {}, staff.cookie)).status).toBe(409)
    const resent = await post(`/desk/mail/${failed!.id}/resend`, {}, staff.cookie)
    expect(resent.status).toBe(303)
    const mail = await delivered(to, /Your guide/)
    expect(mail.subject).toContain('Conversion')
    const log = await env.DB.prepare(
      "SELECT target FROM desk_audit WHERE actor_email = ? AND action = 'mail.resend'",
    )
      .bind(staff.email)
      .all()
    expect(log.results).toEqual([{ target: `mail/${failed!.id}` }])
    // and nobody else can
    expect((await post(`/desk/mail/${failed!.id}/resend`, {})).status).toBe(403)
    expect((await get('/desk/mail')).status).toBe(404)
  })
})
