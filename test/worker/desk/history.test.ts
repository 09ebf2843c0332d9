import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import ar from '../../../locales/ar.json'
import en from '../../../locales/en.json'
import fr from '../../../locales/fr.json'
import { historyQueries, type HistoryFilter } from '../../../worker/db/history'
import { unique } from '../auth/helpers'
import { get, person } from './helpers'

// The desk's history (/desk/history): every row of desk_audit, newest first, filtered by person,
// kind of action and dates, a page at a time, and the same rows as CSV. Other files write the
// log too (one workerd): each test reads its own actors' rows through the person filter.

/** A made-up member of staff and the rows they wrote, at the times given (ISO, UTC). */
async function actorWith(
  rows: { action: string; target?: string | null; detail?: object; at: string }[],
) {
  const actor = { id: crypto.randomUUID(), email: unique('history') }
  await env.DB.batch(
    rows.map((r) =>
      env.DB.prepare(
        `INSERT INTO desk_audit (actor_id, actor_email, action, target, detail, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ).bind(
        actor.id,
        actor.email,
        r.action,
        r.target ?? null,
        JSON.stringify(r.detail ?? {}),
        r.at,
      ),
    ),
  )
  return actor
}

const unescape = (s: string) =>
  s
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')

/** The targets of a history page's rows, in the page's order (each row's "on what" cell). */
const targetsOf = (html: string) =>
  [...html.matchAll(/data-target="([^"]*)"/g)].map((m) => unescape(m[1]))

/** The older-rows link of a page, or null on the last. */
const olderOf = (html: string) => {
  const link = html.match(/href="(\/desk\/history\?[^"]*after=[^"]*)"/)
  return link ? link[1].replaceAll('&amp;', '&') : null
}

/** A CSV's lines as cells, unquoted (RFC 4180; these rows hold no line breaks in a cell). */
const csvRows = (text: string) =>
  text
    .trim()
    .split('\r\n')
    .map((line) => {
      const cells: string[] = []
      let cell = ''
      let quoted = false
      for (let i = 0; i < line.length; i++) {
        const ch = line[i]
        if (quoted && ch === '"' && line[i + 1] === '"') {
          cell += '"'
          i++
        } else if (ch === '"') quoted = !quoted
        else if (ch === ',' && !quoted) {
          cells.push(cell)
          cell = ''
        } else cell += ch
      }
      return [...cells, cell]
    })

let admin: { email: string; cookie: string }

beforeAll(async () => {
  admin = await person({ staff: 'admin', secondFactor: true })
}, 60_000)

describe('the history page', { timeout: 90_000 }, () => {
  it('shows who did what, on what, when; links to what still exists; the site as "The site"', async () => {
    const lead = await env.DB.prepare(
      `INSERT INTO contact_messages (name, email, service, message, language)
       VALUES ('Hana History', ?, 'amazon', 'Hello', 'en') RETURNING id`,
    )
      .bind(unique('history-lead'))
      .first<number>('id')
    const actor = await actorWith([
      { action: 'lead.mark', target: `contact/${lead}`, at: '2026-03-02T10:00:00.000Z' },
      { action: 'lead.mark', target: 'contact/999999999', at: '2026-03-02T10:01:00.000Z' },
      {
        action: 'team.role',
        target: 'newsletter/999999999',
        detail: { email: 'dana@example.org', from: 'editor', to: 'admin' },
        at: '2026-03-02T10:02:00.000Z',
      },
      {
        action: 'team.invite',
        detail: { email: 'new@example.org', role: 'sales', lang: 'es' },
        at: '2026-03-02T10:03:00.000Z',
      },
      { action: 'something.new', target: 'thing/1', at: '2026-03-02T10:04:00.000Z' },
      {
        action: 'content.review_return',
        target: 'article/a-draft',
        detail: { note: 'Shorter intro <please>' },
        at: '2026-03-01T10:00:00.000Z',
      },
    ])
    const res = await get(`/desk/history?who=${actor.id}`, admin.cookie)
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    // (an address may break after its @: a <wbr> there)
    const html = (await res.text()).replaceAll('<wbr/>', '')
    expect(html).toContain(en.desk_history.title)
    expect(html).toContain(en.desk_history.actions.lead.mark)
    expect(html).toContain(en.desk_history.actions.team.role.replace("'", '&#x27;'))
    expect(html).toContain(en.desk_history.actions.team.invite)
    // an action the page has no name for: its own
    expect(html).toContain('something.new')
    expect(html).toContain(actor.email)
    expect(html).toContain('dana@example.org')
    expect(html).toContain('new@example.org')
    expect(html).toMatch(/<time datetime="2026-03-02T10:00:00.000Z"/i)
    // newest first
    expect(targetsOf(html)).toEqual([
      'thing/1',
      '',
      'newsletter/999999999',
      'contact/999999999',
      `contact/${lead}`,
      'article/a-draft',
    ])
    // the reviewer's note, escaped
    expect(html).toContain('“Shorter intro &lt;please&gt;”')
    // the lead that exists is a link; the one that does not is text
    expect(html).toContain(`href="/desk/leads/contact/${lead}"`)
    expect(html).not.toContain('href="/desk/leads/contact/999999999"')
    expect(html).not.toContain('href="/desk/newsletters/999999999"')

    // content by its kind and address: its editor's page
    const item = await env.DB.prepare(
      "SELECT id, slug FROM content_items WHERE kind = 'article' LIMIT 1",
    ).first<{ id: number; slug: string }>()
    const writer = await actorWith([
      {
        action: 'content.publish',
        target: `article/${item!.slug}`,
        at: '2026-03-03T10:00:00.000Z',
      },
      {
        action: 'content.publish',
        target: 'article/no-such-article',
        at: '2026-03-03T10:01:00.000Z',
      },
    ])
    const content = await (await get(`/desk/history?who=${writer.id}`, admin.cookie)).text()
    expect(content).toContain(`href="/desk/content/article/${item!.id}"`)
    // (the one gone is text)
    expect(content.match(/href="\/desk\/content\/article\/\d+"/g)).toHaveLength(1)

    // the site's own rows (an empty actor), in Arabic too
    const site = { id: '', at: '2001-01-01T12:00:00.000Z' }
    await env.DB.prepare(
      `INSERT INTO desk_audit (actor_id, actor_email, action, target, detail, created_at)
       VALUES ('', '', 'team.invite_expire', NULL, '{"email":"late@example.org"}', ?)`,
    )
      .bind(site.at)
      .run()
    const bySite = (
      await (await get('/desk/history?who=site&to=2001-01-01', admin.cookie)).text()
    ).replaceAll('<wbr/>', '')
    expect(bySite).toContain(en.desk_history.site)
    expect(bySite).toContain(en.desk_history.actions.team.invite_expire)
    expect(bySite).toContain('late@example.org')
    const arabic = await (
      await get('/desk/history?who=site&to=2001-01-01&lang=ar', admin.cookie)
    ).text()
    expect(arabic).toContain(ar.desk_history.site)
    expect(arabic).toContain(ar.desk_history.actions.team.invite_expire)
  })

  it('lists real actions as they happen, and the person select offers who appears in the log', async () => {
    const html = await (await get('/desk/history', admin.cookie)).text()
    // the person filter offers the site and this file's admin once they appear
    expect(html).toContain(`>${en.desk_history.site}</option>`)
    await get('/desk/history.csv', admin.cookie)
    const after = await (await get('/desk/history', admin.cookie)).text()
    expect(after).toContain(`>${admin.email}</option>`)
    expect(after).toContain(en.desk_history.actions.history.export)
  })

  it('filters by person, by kind of action and by dates, exactly', async () => {
    const a = await actorWith([
      { action: 'lead.mark', target: 'a/1', at: '2025-06-01T12:00:00.000Z' },
      { action: 'booking.cancel', target: 'a/2', at: '2025-06-02T12:00:00.000Z' },
      { action: 'booking.move', target: 'a/3', at: '2025-06-02T13:00:00.000Z' },
      { action: 'lead.mark', target: 'a/4', at: '2025-06-03T12:00:00.000Z' },
    ])
    const b = await actorWith([
      { action: 'lead.mark', target: 'b/1', at: '2025-06-02T12:00:00.000Z' },
    ])
    const targets = async (query: string) =>
      targetsOf(await (await get(`/desk/history?${query}`, admin.cookie)).text())
    expect(await targets(`who=${a.id}`)).toEqual(['a/4', 'a/3', 'a/2', 'a/1'])
    expect(await targets(`who=${b.id}`)).toEqual(['b/1'])
    expect(await targets(`who=${a.id}&from=2025-06-02&to=2025-06-02`)).toEqual(['a/3', 'a/2'])
    expect(await targets(`who=${a.id}&from=2025-06-02`)).toEqual(['a/4', 'a/3', 'a/2'])
    expect(await targets(`who=${a.id}&to=2025-06-01`)).toEqual(['a/1'])
    // a kind of action: the group, or one action
    expect(await targets(`who=${a.id}&action=bookings`)).toEqual(['a/3', 'a/2'])
    expect(await targets(`who=${a.id}&action=booking.move`)).toEqual(['a/3'])
    expect(await targets(`who=${a.id}&action=leads&from=2025-06-02`)).toEqual(['a/4'])
    // everyone's rows of one day include both, and nobody else's of these targets
    const day = await targets('from=2025-06-02&to=2025-06-02')
    expect(day.filter((t) => /^[ab]\//.test(t))).toEqual(
      expect.arrayContaining(['a/3', 'a/2', 'b/1']),
    )
    expect(day).not.toContain('a/1')
    expect(day).not.toContain('a/4')
  })

  it('says what is wrong with a filter it cannot read, in the page language, never a 500', async () => {
    for (const query of [
      'from=2025-13-45',
      'to=yesterday',
      'from=2025-06-03&to=2025-06-01',
      'action=<script>',
    ]) {
      const res = await get(`/desk/history?${query}`, admin.cookie)
      expect(res.status, query).toBe(400)
      const html = await res.text()
      expect(html, query).toContain('role="alert"')
      const csv = await get(`/desk/history.csv?${query}`, admin.cookie)
      expect(csv.status, query).toBe(400)
    }
    const french = await (await get('/desk/history?from=2025-13-45&lang=fr', admin.cookie)).text()
    expect(french).toContain(fr.desk_history.errors.date)
  })

  it('pages by a fixed size, disjoint and in order, by the older link', async () => {
    // 120 rows, some sharing an instant (the cursor's id breaks the tie)
    const rows = Array.from({ length: 120 }, (_, i) => ({
      action: 'mail.resend',
      target: `p/${String(i).padStart(3, '0')}`,
      at: new Date(Date.UTC(2024, 0, 1, 0, Math.floor(i / 3))).toISOString(),
    }))
    const actor = await actorWith(rows)
    const pages: string[][] = []
    let path: string | null = `/desk/history?who=${actor.id}`
    while (path) {
      const html = await (await get(path, admin.cookie)).text()
      pages.push(targetsOf(html))
      path = olderOf(html)
    }
    expect(pages.map((p) => p.length)).toEqual([50, 50, 20])
    const all = pages.flat()
    expect(new Set(all).size).toBe(120)
    // newest first: the inserted order reversed (equal instants by id, newest id first)
    expect(all).toEqual(rows.map((r) => r.target).reverse())
  })
})

describe('the history by index', () => {
  it('reads each filter, on any page, in the order of an index: no table scan, no sort', async () => {
    const dates = { since: '2025-01-01T00:00:00.000Z', until: '2025-02-01T00:00:00.000Z' }
    const filters: HistoryFilter[] = [
      {},
      dates,
      { actor: 'someone' },
      { actor: '', ...dates },
      { actions: ['lead.mark'] },
      { actions: ['lead.mark', 'leads.export'], ...dates },
      { actor: 'someone', actions: ['team.role'] },
      { actor: 'someone', actions: ['booking.cancel', 'booking.move'], ...dates },
    ]
    for (const filter of filters)
      for (const cursor of [null, { at: '2025-01-15T00:00:00.000Z', id: 10 }])
        for (const [sql, args] of historyQueries(filter, cursor, 50)) {
          const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .bind(...args)
            .all<{ detail: string }>()
          const steps = plan.results.map((r) => r.detail).join('; ')
          // (the whole log from its newest row: a SCAN of the time index, stopped by the LIMIT)
          expect(steps, JSON.stringify(filter)).toMatch(
            /^(SEARCH|SCAN) desk_audit USING INDEX desk_audit_by_\w+( \([^)]*\))?$/,
          )
          expect(steps, JSON.stringify(filter)).not.toMatch(/TEMP B-TREE/)
        }
  })
})

describe('the history as CSV', { timeout: 90_000 }, () => {
  it('holds the same rows as the page of the same filter, formula-like cells made safe, and is audited', async () => {
    const actor = await actorWith([
      { action: 'lead.mark', target: 'c/1', at: '2025-02-01T12:00:00.000Z' },
      {
        action: 'team.invite',
        target: '=HYPERLINK("http://evil.example","x")',
        detail: { email: '+cmd@example.org' },
        at: '2025-02-02T12:00:00.000Z',
      },
      { action: 'lead.mark', target: 'c/3', at: '2025-02-03T12:00:00.000Z' },
      { action: 'lead.mark', target: 'c/4', at: '2025-02-04T12:00:00.000Z' },
    ])
    const query = `who=${actor.id}&from=2025-02-02&to=2025-02-03`
    const page = targetsOf(await (await get(`/desk/history?${query}`, admin.cookie)).text())
    const res = await get(`/desk/history.csv?${query}`, admin.cookie)
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toMatch(/^text\/csv/)
    expect(res.headers.get('Content-Disposition')).toMatch(/attachment; filename="history-/)
    const text = await res.text()
    const [head, ...lines] = csvRows(text)
    expect(head).toEqual(['id', 'created_at', 'actor_email', 'action', 'target', 'detail'])
    // newest first, as the page; the formula-like target starts with an apostrophe
    expect(lines.map((l) => l[4])).toEqual(['c/3', `'=HYPERLINK("http://evil.example","x")`])
    expect(lines[1][5]).toContain(`"email":"+cmd@example.org"`)
    expect(page).toEqual(['c/3', '=HYPERLINK("http://evil.example","x")'])
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`)
    expect(lines.every((l) => l[2] === actor.email)).toBe(true)
    const exported = await env.DB.prepare(
      `SELECT detail FROM desk_audit WHERE actor_email = ? AND action = 'history.export'
       ORDER BY id DESC LIMIT 1`,
    )
      .bind(admin.email)
      .first<{ detail: string }>()
    expect(JSON.parse(exported!.detail)).toMatchObject({ rows: 2, filter: { who: actor.id } })
  })
})

describe('who may read it', { timeout: 90_000 }, () => {
  it('refuses an Editor and Sales: the not-found page, and 403 for the CSV', async () => {
    for (const role of ['editor', 'sales'] as const) {
      const { cookie } = await person({ staff: role, secondFactor: true })
      const page = await get('/desk/history', cookie)
      expect(page.status, role).toBe(404)
      expect(await page.text()).toContain(en.not_found.title)
      expect((await get('/desk/history.csv', cookie)).status, role).toBe(403)
    }
  })
})
