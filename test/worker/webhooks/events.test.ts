import { env, SELF } from 'cloudflare:test'
import { Webhook } from 'standardwebhooks'
import { afterAll, describe, expect, it } from 'vitest'
import { withToken } from '../challenge'
import { randomIp } from '../random-ip'
import { contentPublished, EVENT_TYPES, webhookEvent } from '../../../worker/webhooks/events'
import { makeEndpoint, pathFor, receivedAtLeast, signatureHeaders, type Received } from './helpers'

const post = (path: string, body: Record<string, unknown>) =>
  SELF.fetch(`https://example.com${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': randomIp() },
    body: JSON.stringify(path === '/api/contact' ? body : withToken(body)),
  })

const unique = () => `hook${crypto.randomUUID().slice(0, 8)}@example.org`
const payload = (r: Received) =>
  JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> }

/** Every endpoint made here, turned off at the end (so other files' events stop reaching it). */
const made: number[] = []
afterAll(async () => {
  await env.DB.prepare(
    'UPDATE webhook_endpoints SET enabled = 0 WHERE id IN (SELECT value FROM json_each(?))',
  )
    .bind(JSON.stringify(made))
    .run()
})

async function endpoints() {
  const plain = await makeEndpoint({ path: pathFor('ok'), events: [...EVENT_TYPES] })
  const personal = await makeEndpoint({
    path: pathFor('ok'),
    events: [...EVENT_TYPES],
    personal: true,
  })
  made.push(plain.id, personal.id)
  return { plain, personal }
}

/** The requests at `path` whose event is the one `match` picks, once there is one. */
async function deliveredTo(path: string, match: (r: Received) => boolean) {
  const deadline = Date.now() + 30_000
  for (;;) {
    const mine = (await receivedAtLeast(path, 1)).filter(match)
    if (mine.length) return mine
    if (Date.now() > deadline) throw new Error(`no matching delivery at ${path}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('events from the site, delivered', () => {
  it('a contact message: lead.created to each endpoint, signed; personal fields only where asked', async () => {
    const { plain, personal } = await endpoints()
    const email = unique()
    const res = await post('/api/contact', {
      name: 'Grace Hopper',
      email,
      company: 'Compilers Ltd',
      service: 'amazon',
      budget: '1k_5k',
      message: 'Please call me about Amazon ads.',
    })
    expect(res.status).toBe(200)
    const { id } = (await env.DB.prepare('SELECT id FROM contact_messages WHERE email = ?')
      .bind(email)
      .first<{ id: number }>())!
    const ours = (r: Received) => payload(r).data.id === id && payload(r).data.kind === 'contact'
    const [withPersonal] = await deliveredTo(personal.path, ours)
    const [without] = await deliveredTo(plain.path, ours)
    expect(payload(without)).toMatchObject({
      type: 'lead.created',
      data: {
        id,
        kind: 'contact',
        language: 'en',
        page: '/contact',
        service: 'amazon',
        desk_url: expect.stringMatching(new RegExp(`/desk/leads/contact/${id}$`)),
      },
    })
    expect(new Webhook(plain.secret).verify(without.body, signatureHeaders(without))).toBeTruthy()
    expect(payload(withPersonal).data).toMatchObject({
      name: 'Grace Hopper',
      email,
      company: 'Compilers Ltd',
      message: 'Please call me about Amazon ads.',
    })
    // one event: the same webhook-id at both
    expect(withPersonal.headers['webhook-id']).toBe(without.headers['webhook-id'])
  })

  it('a newsletter sign-up: lead.created (subscriber), without personal fields where not asked', async () => {
    const { plain, personal } = await endpoints()
    const email = unique()
    expect((await post('/api/newsletter', { email })).status).toBe(200)
    const ours = (r: Received) =>
      payload(r).data.kind === 'subscriber' && (r.body.includes(email) || r.path === plain.path)
    const [withPersonal] = await deliveredTo(personal.path, ours)
    expect(payload(withPersonal).data).toMatchObject({ email, form: 'newsletter' })
    const id = payload(withPersonal).data.id
    const [without] = await deliveredTo(plain.path, (r) => payload(r).data.id === id)
    expect(payload(without).data).toMatchObject({ kind: 'subscriber', form: 'newsletter' })
  })

  it('without personal fields, no name, address or message is in any payload', async () => {
    const { plain } = await endpoints()
    await post('/api/contact', {
      name: 'Katherine Johnson',
      email: unique(),
      service: 'amazon',
      message: 'Orbital mechanics for your funnel.',
    })
    const all = await deliveredTo(plain.path, (r) => payload(r).data.kind === 'contact')
    for (const r of await receivedAtLeast(plain.path, all.length)) {
      const { data } = payload(r)
      for (const field of ['name', 'email', 'message', 'company', 'notes'])
        expect(data).not.toHaveProperty(field)
      expect(r.body).not.toMatch(/Katherine|Orbital|@example\.org/)
    }
  })

  it('content.published names the item and its desk page, to the endpoints that want it', async () => {
    const wants = await makeEndpoint({ path: pathFor('ok'), events: ['content.published'] })
    const other = await makeEndpoint({ path: pathFor('ok'), events: ['lead.created'] })
    made.push(wants.id, other.id)
    const slug = `hook-${crypto.randomUUID().slice(0, 8)}`
    // a draft nobody sees: the event's statements read its id as a publish's batch would
    const { id } = (await env.DB.prepare(
      "INSERT INTO content_items (kind, slug, status) VALUES ('faq', ?, 'draft') RETURNING id",
    )
      .bind(slug)
      .first<{ id: number }>())!
    const [, deliveries] = await env.DB.batch(
      contentPublished(env, 'https://example.com', { kind: 'faq', slug }),
    )
    await env.DB.prepare('DELETE FROM content_items WHERE id = ?').bind(id).run()
    const endpoints = (deliveries.results as { id: number }[]).map((d) => d.id)
    const rows = (
      await env.DB.prepare(
        `SELECT d.endpoint_id, e.type, e.data FROM webhook_deliveries d
         JOIN webhook_events e ON e.id = d.event_id WHERE d.id IN (SELECT value FROM json_each(?))`,
      )
        .bind(JSON.stringify(endpoints))
        .all<{ endpoint_id: number; type: string; data: string }>()
    ).results
    expect(rows.map((r) => r.endpoint_id)).toContain(wants.id)
    expect(rows.map((r) => r.endpoint_id)).not.toContain(other.id)
    expect(JSON.parse(rows[0].data)).toMatchObject({
      id,
      kind: 'faq',
      slug,
      desk_url: `https://example.com/desk/content/faq/${id}`,
    })
  })

  it('costs nothing when no endpoint wants the event: no row written', async () => {
    const [event, deliveries] = await env.DB.batch(
      webhookEvent(env, 'https://example.com', {
        // a type no endpoint subscribes to
        type: 'never.wanted' as 'lead.created',
        item: 1,
        deskPath: '/desk',
        data: {},
      }),
    )
    expect(event.meta.changes).toBe(0)
    expect(deliveries.results).toEqual([])
  })
})
