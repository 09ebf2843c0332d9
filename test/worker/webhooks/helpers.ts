import { env } from 'cloudflare:test'
import { expect } from 'vitest'
import { newSecret } from '../../../worker/webhooks/sign'
import { sendTestEvent } from '../../../worker/webhooks/queue'

/** A request the tests' receiver recorded (test/setup/webhook-receiver.ts). */
export interface Received {
  path: string
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** An execution context that drops what it is given: a queue message lost with its Worker. */
export const lostMessages = { waitUntil: () => {} }

/** A path of the tests' receiver of its own (its first segment says how it answers). */
export const pathFor = (kind: string) => `/${kind}/${crypto.randomUUID()}`

/** An endpoint on the tests' receiver; subscribed to nothing unless told (no other test's events). */
export async function makeEndpoint({
  path,
  url = `${env.WEBHOOK_RECEIVER_URL}${path}`,
  events = [],
  format = 'standard',
  personal = false,
}: {
  path: string
  url?: string
  events?: string[]
  format?: 'standard' | 'slack'
  personal?: boolean
}) {
  const secret = newSecret()
  const row = await env.DB.prepare(
    `INSERT INTO webhook_endpoints (url, events, format, personal, secret, created_by)
     VALUES (?, ?, ?, ?, ?, 'test') RETURNING id`,
  )
    .bind(url, JSON.stringify(events), format, personal ? 1 : 0, secret)
    .first<{ id: number }>()
  return { id: row!.id, secret, path }
}

/** A test event to the endpoint, written but not queued (the tests make its attempts). */
export async function deliveryTo(endpointId: number) {
  const id = await sendTestEvent(env, lostMessages, endpointId)
  expect(id).not.toBeNull()
  return id!
}

export const delivery = (id: number) =>
  env.DB.prepare('SELECT * FROM webhook_deliveries WHERE id = ?')
    .bind(id)
    .first<{ status: string; attempts: number; next_at: string | null; event_id: string }>()

export const attempts = async (deliveryId: number) =>
  (
    await env.DB.prepare('SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY id')
      .bind(deliveryId)
      .all<{ at: string; status: number | null; error: string | null; response: string | null }>()
  ).results

export const endpoint = (id: number) =>
  env.DB.prepare('SELECT * FROM webhook_endpoints WHERE id = ?')
    .bind(id)
    .first<{ enabled: number; disabled_reason: string | null; failing_since: string | null }>()

/** What the receiver got at `path`, oldest first. */
export async function received(path: string): Promise<Received[]> {
  const res = await fetch(`${env.WEBHOOK_RECEIVER_URL}/__requests?path=${encodeURIComponent(path)}`)
  return res.json()
}

/** The receiver's requests at `path` once there are `count` (a hang guard, not a measure). */
export async function receivedAtLeast(path: string, count: number, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const got = await received(path)
    if (got.length >= count) return got
    if (Date.now() > deadline) throw new Error(`fewer than ${count} requests at ${path}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** The headers standardwebhooks verifies. */
export const signatureHeaders = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
})
