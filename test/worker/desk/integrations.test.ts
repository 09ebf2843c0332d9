import { env } from 'cloudflare:test'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import ar from '../../../locales/ar.json'
import en from '../../../locales/en.json'
import { agencyTimeZone } from '../../../worker/config'
import { logQuery } from '../../../worker/db/webhook-endpoints'
import { shownUrl } from '../../../worker/webhooks/address'
import { siteWith } from '../privacy/helpers'
import { pathFor, receivedAtLeast } from '../webhooks/helpers'
import { get, person, post } from './helpers'

// The desk's integrations (/desk/integrations): webhook endpoints added, changed, turned on and
// off, removed, their secret shown once; the delivery log with its filters, paging and replays.
// Other files write webhooks too (one workerd): each test reads its own endpoints' rows.

const I = en.desk_integrations

/** The page's text as a reader gets it: React's escapes undone. */
const unescape = (s: string) =>
  s
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')

/**
 * An endpoint form's fields as the browser posts them: its events are checkboxes of one name,
 * repeated (URLSearchParams takes the pairs; the helpers type their fields as a record).
 */
const endpointForm = (f: {
  url: string
  events?: string[]
  format?: string
  personal?: boolean
  description?: string
}) =>
  [
    ['url', f.url],
    ...(f.events ?? ['lead.created']).map((e) => ['events', e]),
    ['format', f.format ?? 'standard'],
    ...(f.personal ? [['personal', '1']] : []),
    ['description', f.description ?? ''],
  ] as unknown as Record<string, string>

/** The site as deployed (no local addresses), and as npm start and the tests run it. */
const production = siteWith({ WEBHOOK_ALLOW_LOCAL: '' })
const local = siteWith({ WEBHOOK_ALLOW_LOCAL: 'true' })

const endpointByUrl = (url: string) =>
  env.DB.prepare('SELECT * FROM webhook_endpoints WHERE url = ? ORDER BY id DESC').bind(url).first<{
    id: number
    url: string
    events: string
    format: string
    personal: number
    enabled: number
    secret: string
    previous_secret: string | null
    previous_until: string | null
    description: string
    disabled_reason: string | null
  }>()

const auditOf = (action: string, target: string) =>
  env.DB.prepare(
    'SELECT actor_email, detail FROM desk_audit WHERE action = ? AND target = ? ORDER BY id DESC',
  )
    .bind(action, target)
    .first<{ actor_email: string; detail: string }>()

let admin: { email: string; cookie: string }
let n = 0
/** A URL of this test's own on the internet (example.com's, which answers nothing of ours). */
const freshUrl = () => `https://hooks.example.com/${Date.now().toString(36)}-${++n}`

beforeAll(async () => {
  admin = await person({ staff: 'admin', secondFactor: true })
}, 60_000)

// the files after this one in its workerd raise events too: none goes to this file's endpoints
afterAll(async () => {
  await env.DB.prepare('DELETE FROM webhook_endpoints WHERE created_by = ?').bind(admin.email).run()
})

describe('the endpoints', { timeout: 60_000 }, () => {
  /**
   * The page after a post that made a secret: its cookie (HttpOnly, this page's, read once) sent
   * back as a browser does; the secret never in the address. The page's HTML.
   */
  async function shownAfter(res: Response) {
    const kept = res.headers.getSetCookie().find((c) => c.startsWith('desk-new-secret='))!
    expect(kept).toMatch(/HttpOnly/i)
    expect(kept).toMatch(/Path=\/desk\/integrations/)
    expect(res.headers.get('Location')).not.toMatch(/whsec_/)
    const page = await get('/desk/integrations', `${admin.cookie}; ${kept.split(';')[0]}`)
    expect(page.headers.get('Cache-Control')).toBe('no-store')
    // the cookie goes with this page
    expect(page.headers.getSetCookie().some((c) => /^desk-new-secret=;/.test(c))).toBe(true)
    return unescape(await page.text())
  }

  it('adds an https endpoint and shows its secret once: on the page after the post, never after', async () => {
    const url = freshUrl()
    const res = await production.postForm(
      '/desk/integrations',
      endpointForm({
        url,
        events: ['lead.created', 'booking.created'],
        format: 'slack',
        personal: true,
        description: 'Sales channel',
      }),
      { Cookie: admin.cookie },
    )
    // posted, then the page: a reload of it never posts the form again
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe('/desk/integrations')
    const html = await shownAfter(res)
    const stored = (await endpointByUrl(url))!
    expect(stored).toMatchObject({
      events: '["lead.created","booking.created"]',
      format: 'slack',
      personal: 1,
      enabled: 1,
      description: 'Sales channel',
    })
    expect(stored.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/)
    expect(html).toContain(stored.secret)
    expect(html).toContain(I.secret.once)
    expect(html).toContain(I.secret.created_done)
    // the history names it, without the secret
    const row = (await auditOf('integration.create', `integration/${stored.id}`))!
    expect(row.actor_email).toBe(admin.email)
    expect(row.detail).toContain(url)
    expect(row.detail).not.toContain(stored.secret)
    // afterwards only its first characters
    const again = unescape(await (await get('/desk/integrations', admin.cookie)).text())
    expect(again).not.toContain(stored.secret)
    expect(again).toContain(`${stored.secret.slice(0, 10)}…`)
    expect(again).not.toContain(I.secret.once)
    expect(again).toContain(url)
  })

  it('adds http://127.0.0.1 only where local addresses are allowed (npm start, the tests)', async () => {
    const url = `http://127.0.0.1:8788/hook-${Date.now().toString(36)}`
    const res = await local.postForm('/desk/integrations', endpointForm({ url }), {
      Cookie: admin.cookie,
    })
    expect(res.status).toBe(303)
    expect(await endpointByUrl(url)).not.toBeNull()
    const refused = await production.postForm(
      '/desk/integrations',
      endpointForm({ url: `${url}-prod` }),
      { Cookie: admin.cookie },
    )
    expect(refused.status).toBe(422)
    expect(await endpointByUrl(`${url}-prod`)).toBeNull()
  })

  it.each([
    ['https://10.0.0.7/hook', 'private'],
    ['https://192.168.1.20/hook', 'private'],
    ['https://169.254.169.254/latest', 'private'],
    ['https://[::1]/hook', 'private'],
    ['https://localhost/hook', 'localhost'],
    ['https://api.localhost/hook', 'localhost'],
    ['http://hooks.example.com/plain', 'not_https'],
    ['not a url', 'invalid'],
  ] as const)(
    'refuses %s with a clear message (%s), the form as typed, nothing stored',
    async (url, reason) => {
      const res = await production.postForm(
        '/desk/integrations',
        endpointForm({ url, description: 'kept as typed' }),
        { Cookie: admin.cookie },
      )
      expect(res.status).toBe(422)
      const html = unescape(await res.text())
      expect(html).toContain(I.field_errors.url[reason])
      expect(html).toContain(I.errors.form)
      expect(html).toContain(`value="${url}"`)
      expect(html).toContain('value="kept as typed"')
      expect(await endpointByUrl(url)).toBeNull()
      expect(html).not.toContain(I.secret.once)
    },
  )

  it('refuses a form without events or with a format it does not know, in the page’s language', async () => {
    const url = freshUrl()
    const res = await production.postForm(
      '/desk/integrations?lang=ar',
      endpointForm({ url, events: [], format: 'xml' }),
      { Cookie: admin.cookie },
    )
    expect(res.status).toBe(422)
    const html = unescape(await res.text())
    expect(html).toContain(ar.desk_integrations.field_errors.events.invalid)
    expect(html).toContain(ar.desk_integrations.field_errors.format.invalid)
    expect(await endpointByUrl(url)).toBeNull()
    // and one with an event type that does not exist
    const unknown = await production.postForm(
      '/desk/integrations',
      endpointForm({ url, events: ['lead.created', 'everything'] }),
      { Cookie: admin.cookie },
    )
    expect(unknown.status).toBe(422)
    expect(await endpointByUrl(url)).toBeNull()
  })

  it('edits an endpoint; a refused address leaves it as it was and shows what was typed', async () => {
    const url = freshUrl()
    await production.postForm('/desk/integrations', endpointForm({ url }), {
      Cookie: admin.cookie,
    })
    const { id } = (await endpointByUrl(url))!
    const moved = `${url}/v2`
    const saved = await production.postForm(
      `/desk/integrations/${id}`,
      endpointForm({
        url: moved,
        events: ['booking.moved', 'content.published'],
        format: 'standard',
        personal: false,
        description: 'CRM',
      }),
      { Cookie: admin.cookie },
    )
    expect(saved.status).toBe(303)
    expect(saved.headers.get('Location')).toBe('/desk/integrations?done=saved')
    expect(await endpointByUrl(moved)).toMatchObject({
      id,
      events: '["booking.moved","content.published"]',
      description: 'CRM',
    })
    // the history names the address by its start: the rest can be the receiver's credential
    const updated = (await auditOf('integration.update', `integration/${id}`))!.detail
    expect(updated).toContain(shownUrl(moved))
    if (shownUrl(moved) !== moved) expect(updated).not.toContain(moved)
    const refused = await production.postForm(
      `/desk/integrations/${id}`,
      endpointForm({ url: 'https://127.0.0.1/x', description: 'typed' }),
      { Cookie: admin.cookie },
    )
    expect(refused.status).toBe(422)
    const html = unescape(await refused.text())
    expect(html).toContain(I.field_errors.url.private)
    expect(html).toContain('value="https://127.0.0.1/x"')
    expect(await endpointByUrl(moved)).toMatchObject({ id, description: 'CRM' })
    // one that is gone
    const gone = await post(`/desk/integrations/999999`, {}, admin.cookie)
    expect(gone.headers.get('Location')).toBe('/desk/integrations?error=not_found')
  })

  it('turns an endpoint off and on, and says why one the engine turned off is off', async () => {
    const url = freshUrl()
    await production.postForm('/desk/integrations', endpointForm({ url }), {
      Cookie: admin.cookie,
    })
    const { id } = (await endpointByUrl(url))!
    const off = await post(`/desk/integrations/${id}/toggle`, { enabled: '0' }, admin.cookie)
    expect(off.headers.get('Location')).toBe('/desk/integrations?done=disabled')
    expect(await endpointByUrl(url)).toMatchObject({ enabled: 0, disabled_reason: 'manual' })
    expect(JSON.parse((await auditOf('integration.toggle', `integration/${id}`))!.detail)).toEqual({
      url,
      enabled: false,
    })
    // a test event to an endpoint that is off: said, not sent
    const test = await post(`/desk/integrations/${id}/test`, {}, admin.cookie)
    expect(test.headers.get('Location')).toBe('/desk/integrations?error=test_off')
    const on = await post(`/desk/integrations/${id}/toggle`, { enabled: '1' }, admin.cookie)
    expect(on.headers.get('Location')).toBe('/desk/integrations?done=enabled')
    expect(await endpointByUrl(url)).toMatchObject({ enabled: 1, disabled_reason: null })
    // the engine's: answered 410
    await env.DB.prepare(
      `UPDATE webhook_endpoints SET enabled = 0, disabled_reason = 'gone',
         disabled_at = '2026-11-30T10:00:00.000Z' WHERE id = ?`,
    )
      .bind(id)
      .run()
    const html = unescape(await (await get('/desk/integrations', admin.cookie)).text())
    const card = html.slice(html.indexOf(`data-endpoint="${id}"`)).split('</li>')[0]
    expect(card).toContain(I.reasons.gone.split('{{date}}')[1])
    expect(card).toContain(I.turn_on)
  })

  it('rotates the secret: the new one shown once, the old one kept 24 hours', async () => {
    const url = freshUrl()
    await production.postForm('/desk/integrations', endpointForm({ url }), {
      Cookie: admin.cookie,
    })
    const before = (await endpointByUrl(url))!
    const res = await post(`/desk/integrations/${before.id}/rotate`, {}, admin.cookie)
    expect(res.status).toBe(303)
    const after = (await endpointByUrl(url))!
    expect(after.secret).not.toBe(before.secret)
    expect(after.previous_secret).toBe(before.secret)
    const hours = (Date.parse(after.previous_until!) - Date.now()) / 3_600_000
    expect(hours).toBeGreaterThan(23.9)
    expect(hours).toBeLessThanOrEqual(24)
    const html = await shownAfter(res)
    expect(html).toContain(after.secret)
    expect(html).toContain(I.secret.old_works)
    expect(await auditOf('integration.rotate', `integration/${before.id}`)).not.toBeNull()
    const again = unescape(await (await get('/desk/integrations', admin.cookie)).text())
    expect(again).not.toContain(after.secret)
  })

  it('sends a test event through the engine: the receiver gets it, signed with the secret shown once, and the log lists its attempt', async () => {
    const path = pathFor('ok')
    const url = `${env.WEBHOOK_RECEIVER_URL}${path}`
    const made = await local.postForm('/desk/integrations', endpointForm({ url }), {
      Cookie: admin.cookie,
    })
    const shown = (await shownAfter(made)).match(/value="(whsec_[^"]+)"/)![1]
    const { id } = (await endpointByUrl(url))!
    const res = await local.postForm(`/desk/integrations/${id}/test`, {}, { Cookie: admin.cookie })
    expect(res.headers.get('Location')).toBe('/desk/integrations?done=test_sent')
    const [got] = await receivedAtLeast(path, 1)
    const payload = new Webhook(shown).verify(got.body, {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    }) as { type: string }
    expect(payload.type).toBe('webhook.test')
    expect(await auditOf('integration.test', `integration/${id}`)).not.toBeNull()
    // its attempt in the log, once recorded (a hang guard, not a measure)
    let html = ''
    for (let i = 0; i < 200 && !html.includes(I.event_names.webhook.test); i++) {
      html = unescape(
        await (await get(`/desk/integrations/log?endpoint=${id}`, admin.cookie)).text(),
      )
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(html).toContain(I.event_names.webhook.test)
    expect(html).toMatch(/>200</)
  })

  it('deletes an endpoint', async () => {
    const url = freshUrl()
    await production.postForm('/desk/integrations', endpointForm({ url }), {
      Cookie: admin.cookie,
    })
    const { id } = (await endpointByUrl(url))!
    const res = await post(`/desk/integrations/${id}/delete`, {}, admin.cookie)
    expect(res.headers.get('Location')).toBe('/desk/integrations?done=deleted')
    expect(await endpointByUrl(url)).toBeNull()
    expect((await auditOf('integration.delete', `integration/${id}`))!.detail).toContain(url)
    // the history names the action and the endpoint
    const history = unescape(
      await (await get('/desk/history?action=integrations', admin.cookie)).text(),
    )
    expect(history).toContain(en.desk_history.actions.integration.delete)
    expect(history).toContain(url)
    const twice = await post(`/desk/integrations/${id}/delete`, {}, admin.cookie)
    expect(twice.headers.get('Location')).toBe('/desk/integrations?error=not_found')
  })
})

/** An endpoint with attempts at these minutes ago (status, or null and an error). */
async function endpointWithAttempts(
  attempts: { minutesAgo: number; status: number | null; error?: string; response?: string }[],
) {
  const url = freshUrl()
  const endpoint = (await env.DB.prepare(
    `INSERT INTO webhook_endpoints (url, events, format, secret, created_by)
     VALUES (?, '["lead.created"]', 'standard', ?, 'test') RETURNING id`,
  )
    .bind(url, `whsec_${crypto.randomUUID()}`)
    .first<number>('id'))!
  const ids: { attempt: number; delivery: number }[] = []
  for (const a of attempts) {
    const at = new Date(Date.now() - a.minutesAgo * 60_000).toISOString()
    const event = `msg_${crypto.randomUUID().replaceAll('-', '')}`
    await env.DB.prepare(
      `INSERT INTO webhook_events (id, type, created_at, data) VALUES (?, 'lead.created', ?, '{}')`,
    )
      .bind(event, at)
      .run()
    const ok = a.status !== null && a.status < 300
    const delivery = (await env.DB.prepare(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, status, attempts, created_at)
       VALUES (?, ?, ?, 1, ?) RETURNING id`,
    )
      .bind(event, endpoint, ok ? 'done' : 'failed', at)
      .first<number>('id'))!
    const attempt = (await env.DB.prepare(
      `INSERT INTO webhook_attempts (delivery_id, endpoint_id, at, status, duration_ms, response, error)
       VALUES (?, ?, ?, ?, 120, ?, ?) RETURNING id`,
    )
      .bind(delivery, endpoint, at, a.status, a.response ?? null, a.error ?? null)
      .first<number>('id'))!
    ids.push({ attempt, delivery })
  }
  return { endpoint, url, ids }
}

const attemptsOf = (html: string) =>
  [...html.matchAll(/data-attempt="(\d+)"/g)].map((m) => Number(m[1]))
const olderOf = (html: string) => {
  const link = html.match(/href="(\/desk\/integrations\/log\?[^"]*after=[^"]*)"/)
  return link ? link[1].replaceAll('&amp;', '&') : null
}

describe('the delivery log', { timeout: 60_000 }, () => {
  it('lists every attempt newest first, with its status or error, time taken and the answer’s start, escaped', async () => {
    const { endpoint, url, ids } = await endpointWithAttempts([
      { minutesAgo: 40, status: 200, response: 'ok' },
      { minutesAgo: 30, status: 500, response: '<b>boom</b>' + 'x'.repeat(400) },
      { minutesAgo: 20, status: 410, response: 'gone' },
      { minutesAgo: 10, status: null, error: 'timeout' },
    ])
    const res = await get(`/desk/integrations/log?endpoint=${endpoint}`, admin.cookie)
    expect(res.status).toBe(200)
    const raw = await res.text()
    expect(attemptsOf(raw)).toEqual(ids.map((i) => i.attempt).reverse())
    expect(raw).toContain('&lt;b&gt;boom&lt;/b&gt;')
    expect(raw).not.toContain('<b>boom</b>')
    // clipped
    expect(raw).not.toContain('x'.repeat(300))
    const html = unescape(raw)
    expect(html).toContain(url)
    expect(html).toContain('(timeout)')
    expect(html).toContain(I.log.no_answer)
    expect(html).toContain(I.event_names.lead.created)
    expect(html).toContain('120 ms')
    expect(html).toContain(I.log.intro)
    // the failures only: 500, 410 and the timeout
    const failures = await get(
      `/desk/integrations/log?endpoint=${endpoint}&show=failures`,
      admin.cookie,
    )
    expect(attemptsOf(await failures.text())).toEqual(
      ids
        .slice(1)
        .map((i) => i.attempt)
        .reverse(),
    )
  })

  it('pages by (time, id): every attempt once, in order, the filter kept', async () => {
    const minutes = Array.from({ length: 53 }, (_, i) => ({
      // two attempts at the same instant at the page's edge
      minutesAgo: i === 50 ? 49 : i,
      status: i % 2 ? 500 : 200,
    }))
    const { endpoint, ids } = await endpointWithAttempts(minutes)
    const first = await (
      await get(`/desk/integrations/log?endpoint=${endpoint}`, admin.cookie)
    ).text()
    expect(attemptsOf(first)).toHaveLength(50)
    const older = olderOf(first)!
    expect(older).toContain(`endpoint=${endpoint}`)
    const second = await (await get(older, admin.cookie)).text()
    expect(olderOf(second)).toBeNull()
    const seen = [...attemptsOf(first), ...attemptsOf(second)]
    expect(new Set(seen).size).toBe(53)
    expect(seen.sort()).toEqual(ids.map((i) => i.attempt).sort())
  })

  it('reads its index in order for each filter: no sort', async () => {
    for (const filter of [
      {},
      { failures: true },
      { endpoint: 1 },
      { endpoint: 1, failures: true },
    ]) {
      const [sql, args] = logQuery(filter, { at: '2026-12-01T00:00:00.000Z', id: 5 }, 50)
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...args)
        .all<{ detail: string }>()
      const plan = results.map((r) => r.detail).join('\n')
      expect(plan, JSON.stringify(filter)).toMatch(/USING INDEX webhook_attempts_by_/)
      expect(plan, JSON.stringify(filter)).not.toMatch(/TEMP B-TREE/)
    }
  })

  it('answers a filter it cannot read with a message, not a 500', async () => {
    const res = await get('/desk/integrations/log?show=some&endpoint=x', admin.cookie)
    expect(res.status).toBe(400)
    expect(unescape(await res.text())).toContain(I.log.errors.filter)
  })

  it('refuses a replay-since time it cannot read or still to come', async () => {
    for (const since of ['', 'yesterday', '2026-02-30T10:00', '2999-01-01T00:00']) {
      const res = await post('/desk/integrations/log/replay-failed', { since }, admin.cookie)
      expect(res.headers.get('Location'), since).toBe('/desk/integrations/log?error=since')
    }
  })

  it('replays one delivery through the engine, and says so', async () => {
    const { ids, endpoint } = await endpointWithAttempts([{ minutesAgo: 5, status: 500 }])
    const res = await post(
      `/desk/integrations/log/deliveries/${ids[0].delivery}/replay`,
      {},
      admin.cookie,
    )
    expect(res.headers.get('Location')).toBe('/desk/integrations/log?done=replayed')
    const delivery = await env.DB.prepare('SELECT status FROM webhook_deliveries WHERE id = ?')
      .bind(ids[0].delivery)
      .first<{ status: string }>()
    expect(delivery?.status).not.toBe('failed')
    expect(await auditOf('integration.replay', `integration/${endpoint}`)).not.toBeNull()
  })

  it('replays every failed delivery since a time, and says how many', async () => {
    await endpointWithAttempts([
      { minutesAgo: 3, status: 500 },
      { minutesAgo: 2, status: 503 },
      { minutesAgo: 1, status: 200 },
    ])
    const since = new Date(Date.now() - 4 * 60_000)
    const zone = agencyTimeZone(env)
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      dateStyle: 'short',
      timeStyle: 'short',
    })
      .format(since)
      .replace(' ', 'T')
    const res = await post('/desk/integrations/log/replay-failed', { since: local }, admin.cookie)
    const location = new URL(res.headers.get('Location')!, 'http://x')
    expect(location.searchParams.get('done')).toBe('replayed_failed')
    // other files' failures since then count too: at least these two
    const count = Number(location.searchParams.get('n'))
    expect(count).toBeGreaterThanOrEqual(2)
    const page = unescape(
      await (await get(location.pathname + location.search, admin.cookie)).text(),
    )
    expect(page).toContain(
      I.log.done.replayed_failed[count === 1 ? 'one' : 'other'].replace('{{n}}', String(count)),
    )
  })
})
