import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  startWebhookCatcher,
  type CaughtDelivery,
  type EndpointSecrets,
  type WebhookCatcher,
} from '../../scripts/lib/webhook-catcher.mjs'

// The local webhook catcher of `npm start` and the browser tests (scripts/lib/webhook-catcher.mjs):
// it keeps every delivery and says whether its signature verifies with the standardwebhooks
// package, with the secret of the endpoint it was sent to: given by a function, or read from a
// local D1's SQLite file.

const newSecret = () =>
  `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`

/** POSTs `body` to the catcher's `path`, signed with `secret` at `at` (or with `headers`). */
async function deliver(
  catcher: WebhookCatcher,
  path: string,
  body: string,
  {
    secret,
    at = new Date(),
    signedBody = body,
  }: { secret: string; at?: Date; signedBody?: string },
) {
  const id = `msg_${crypto.randomUUID()}`
  const res = await fetch(`${catcher.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, signedBody),
    },
    body,
  })
  expect(res.status).toBe(200)
  const caught = (await (
    await fetch(`${catcher.url}/api/deliveries?path=${encodeURIComponent(path)}`)
  ).json()) as CaughtDelivery[]
  const delivery = caught.find((d) => d.headers['webhook-id'] === id)
  expect(delivery).toBeDefined()
  return delivery!
}

const body = JSON.stringify({
  type: 'lead.created',
  timestamp: new Date().toISOString(),
  data: { kind: 'contact', id: 7 },
})

describe('with the secrets given by a function', () => {
  const secret = newSecret()
  let catcher: WebhookCatcher
  beforeAll(async () => {
    catcher = await startWebhookCatcher({
      secrets: (url): EndpointSecrets[] =>
        url === `${catcher.url}/crm`
          ? [{ secret, previous_secret: null, previous_until: null }]
          : [],
    })
  })
  afterAll(() => catcher?.stop())

  it('a delivery signed with the endpoint secret verifies, and is kept as it came', async () => {
    const d = await deliver(catcher, '/crm', body, { secret })
    expect(d.verification).toBe('verified')
    expect(d.body).toBe(body)
    expect(d.path).toBe('/crm')
    expect(d.headers['webhook-signature']).toMatch(/^v1,/)
  })

  it('a tampered body does not verify', async () => {
    const tampered = body.replace('"id":7', '"id":8')
    const d = await deliver(catcher, '/crm', tampered, { secret, signedBody: body })
    expect(d.verification).toBe('signature does not verify')
  })

  it('another secret does not verify', async () => {
    const d = await deliver(catcher, '/crm', body, { secret: newSecret() })
    expect(d.verification).toBe('signature does not verify')
  })

  it('a timestamp over 5 minutes old fails verification, though signed with the secret', async () => {
    const d = await deliver(catcher, '/crm', body, {
      secret,
      at: new Date(Date.now() - 5 * 60_000 - 30_000),
    })
    expect(d.verification).toBe('signature does not verify')
    expect(d.reason).toMatch(/too old/)
  })

  it('a delivery to a URL no endpoint has says so', async () => {
    const d = await deliver(catcher, '/elsewhere', body, { secret })
    expect(d.verification).toBe('no endpoint with this URL')
  })

  it('the page lists the deliveries newest first, escaped', async () => {
    const first = await deliver(catcher, '/crm', JSON.stringify({ note: '<b>first</b>' }), {
      secret,
    })
    const second = await deliver(catcher, '/crm', JSON.stringify({ note: '<i>second</i>' }), {
      secret,
    })
    const res = await fetch(catcher.url)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await res.text()
    expect(html).not.toContain('<b>first</b>')
    expect(html).toContain('&lt;b&gt;first&lt;/b&gt;')
    const at = (id?: string) => html.indexOf(id!)
    expect(at(second.headers['webhook-id'])).toBeGreaterThan(0)
    expect(at(second.headers['webhook-id'])).toBeLessThan(at(first.headers['webhook-id']))
  })
})

describe("with the secrets read from a local D1's SQLite file", () => {
  let dir: string
  let catcher: WebhookCatcher
  let db: DatabaseSync
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'catcher-d1-'))
    // the D1 folder as miniflare keeps it: the database's file and its metadata.sqlite
    new DatabaseSync(join(dir, 'metadata.sqlite')).close()
    db = new DatabaseSync(join(dir, 'a1b2c3.sqlite'))
    db.exec(readFileSync('migrations/0037_webhooks.sql', 'utf8'))
    catcher = await startWebhookCatcher({ d1Dir: dir })
  })
  afterAll(async () => {
    await catcher?.stop()
    db?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const addEndpoint = (url: string, s: EndpointSecrets) =>
    db
      .prepare(
        `INSERT INTO webhook_endpoints (url, format, secret, previous_secret, previous_until, created_by)
         VALUES (?, 'standard', ?, ?, ?, 'admin@example.org')`,
      )
      .run(url, s.secret, s.previous_secret, s.previous_until)

  it('verifies with the secret of the endpoint saved for that URL (read at the delivery)', async () => {
    const secret = newSecret()
    addEndpoint(`${catcher.url}/slack`, { secret, previous_secret: null, previous_until: null })
    expect((await deliver(catcher, '/slack', body, { secret })).verification).toBe('verified')
    expect((await deliver(catcher, '/slack', body, { secret: newSecret() })).verification).toBe(
      'signature does not verify',
    )
    expect((await deliver(catcher, '/other', body, { secret })).verification).toBe(
      'no endpoint with this URL',
    )
  })

  it('during a rotation, the previous secret verifies too; after it, no longer', async () => {
    const [secret, previous, expired] = [newSecret(), newSecret(), newSecret()]
    const ahead = new Date(Date.now() + 3600_000).toISOString()
    const past = new Date(Date.now() - 3600_000).toISOString()
    addEndpoint(`${catcher.url}/rotating`, {
      secret,
      previous_secret: previous,
      previous_until: ahead,
    })
    addEndpoint(`${catcher.url}/rotated`, {
      secret: newSecret(),
      previous_secret: expired,
      previous_until: past,
    })
    const verdict = async (path: string, s: string) =>
      (await deliver(catcher, path, body, { secret: s })).verification
    expect(await verdict('/rotating', previous)).toBe('verified')
    expect(await verdict('/rotating', secret)).toBe('verified')
    expect(await verdict('/rotated', expired)).toBe('signature does not verify')
  })
})
