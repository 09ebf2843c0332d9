import { env } from 'cloudflare:test'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import { attemptDelivery } from '../../../worker/webhooks/deliver'
import { consumeWebhooks, requeueOverdue, rotateSecret } from '../../../worker/webhooks/queue'
import { nextDelay, SCHEDULE_MS } from '../../../worker/webhooks/schedule'
import { mailsTo } from '../inbox'
import {
  attempts,
  delivery,
  deliveryTo,
  endpoint,
  makeEndpoint,
  pathFor,
  received,
  receivedAtLeast,
  signatureHeaders,
} from './helpers'

/** No jitter: each wait exactly the schedule's. */
const middle = () => 0.5
const production = { ...env, WEBHOOK_ALLOW_LOCAL: '' }
const DAY = 24 * 3600_000

describe('a delivery on a test clock', () => {
  it('500, then 500 twice more, then 200: attempts at 0, 5 s, 5 min, 30 min, one delivery done', async () => {
    const e = await makeEndpoint({ path: pathFor('flaky-3') })
    const id = await deliveryTo(e.id)
    let now = Date.now()
    const nextAts: number[] = []
    for (let i = 0; i < 3; i++) {
      const outcome = await attemptDelivery(env, { id }, { now, random: middle })
      expect(outcome.kind).toBe('retry')
      const next = Date.parse((await delivery(id))!.next_at!)
      nextAts.push(next - now)
      now = next
    }
    expect(nextAts).toEqual([SCHEDULE_MS[1], SCHEDULE_MS[2], SCHEDULE_MS[3]])
    expect(await attemptDelivery(env, { id }, { now, random: middle })).toEqual({ kind: 'done' })
    expect(await delivery(id)).toMatchObject({ status: 'done', attempts: 4, next_at: null })
    expect((await attempts(id)).map((a) => a.status)).toEqual([500, 500, 500, 200])
    expect((await received(e.path)).length).toBe(4)
    // the same webhook-id on every attempt
    expect(new Set((await received(e.path)).map((r) => r.headers['webhook-id'])).size).toBe(1)
    expect((await endpoint(e.id))!.failing_since).toBeNull()
  })

  it('spreads each wait by at most 15 % either way, from a cryptographic random source', async () => {
    const e = await makeEndpoint({ path: pathFor('fail') })
    const id = await deliveryTo(e.id)
    const now = Date.now()
    await attemptDelivery(env, { id }, { now })
    const wait = Date.parse((await delivery(id))!.next_at!) - now
    expect(wait).toBeGreaterThanOrEqual(SCHEDULE_MS[1] * 0.85)
    expect(wait).toBeLessThanOrEqual(SCHEDULE_MS[1] * 1.15)
    // the spread itself, at the random source's two ends: 15 % either way, never none
    expect(nextDelay(1, () => 0)).toBe(SCHEDULE_MS[1] * 0.85)
    expect(nextDelay(1, () => 0.999_999)).toBeCloseTo(SCHEDULE_MS[1] * 1.15, -1)
    expect(nextDelay(3, () => 0.5)).toBe(SCHEDULE_MS[3])
    const draws = new Set(Array.from({ length: 20 }, () => nextDelay(4)))
    expect(draws.size).toBeGreaterThan(1)
    expect(nextDelay(SCHEDULE_MS.length)).toBeNull()
  })

  it('is not attempted before its time: a message come early says when', async () => {
    const e = await makeEndpoint({ path: pathFor('fail') })
    const id = await deliveryTo(e.id)
    const now = Date.now()
    await attemptDelivery(env, { id }, { now, random: middle })
    const { next_at } = (await delivery(id))!
    expect(await attemptDelivery(env, { id, at: next_at! }, { now: now + 1000 })).toEqual({
      kind: 'early',
      nextAt: next_at,
    })
    // a message for an attempt already made does nothing
    expect(
      await attemptDelivery(env, { id, at: new Date(now).toISOString() }, { now: now + 10_000 }),
    ).toEqual({ kind: 'skip' })
    expect((await attempts(id)).length).toBe(1)
  })

  it('fails for good after the tenth attempt', async () => {
    const e = await makeEndpoint({ path: pathFor('fail') })
    const id = await deliveryTo(e.id)
    let now = Date.now()
    for (let i = 0; i < 9; i++) {
      expect((await attemptDelivery(env, { id }, { now, random: middle })).kind).toBe('retry')
      now = Date.parse((await delivery(id))!.next_at!)
    }
    expect(await attemptDelivery(env, { id }, { now, random: middle })).toEqual({ kind: 'failed' })
    expect(await delivery(id)).toMatchObject({ status: 'failed', attempts: 10, next_at: null })
  })

  it('410: the endpoint is turned off, the delivery failed', async () => {
    const e = await makeEndpoint({ path: pathFor('gone') })
    const id = await deliveryTo(e.id)
    const other = await deliveryTo(e.id)
    expect(await attemptDelivery(env, { id })).toEqual({ kind: 'failed', endpointOff: 'gone' })
    expect(await endpoint(e.id)).toMatchObject({ enabled: 0, disabled_reason: 'gone' })
    expect((await delivery(id))!.status).toBe('failed')
    // what was still waiting for it has failed too, and no request goes
    expect((await delivery(other))!.status).toBe('failed')
    expect(await attemptDelivery(env, { id: other })).toEqual({ kind: 'skip' })
    // nothing of the other event went (by its webhook-id: the first may be met twice, when a
    // file beside this one runs the cron's requeue at a simulated later hour)
    const otherId = (await delivery(other))!.event_id
    const sent = (await received(e.path)).map((r) => r.headers['webhook-id'])
    expect(sent.length).toBeGreaterThan(0)
    expect(sent).not.toContain(otherId)
  })

  it('429 with Retry-After: the next attempt waits for it rather than the 5 s step', async () => {
    const e = await makeEndpoint({ path: pathFor('busy') })
    const id = await deliveryTo(e.id)
    const now = Date.now()
    await attemptDelivery(env, { id }, { now, random: middle })
    expect(Date.parse((await delivery(id))!.next_at!) - now).toBe(120_000)
  })

  it('five days of failures: the endpoint is off, and the agency is e-mailed', async () => {
    const e = await makeEndpoint({ path: pathFor('fail') })
    // the e-mail names the endpoint by its description and its address's start (the rest of
    // an address can be the receiver's credential)
    const named = `CRM ${crypto.randomUUID()}`
    await env.DB.prepare('UPDATE webhook_endpoints SET description = ? WHERE id = ?')
      .bind(named, e.id)
      .run()
    const first = await deliveryTo(e.id)
    const start = Date.now()
    let now = start
    // the first event's ten attempts, over about three days
    while ((await attemptDelivery(env, { id: first }, { now, random: middle })).kind === 'retry')
      now = Date.parse((await delivery(first))!.next_at!)
    expect(now - start).toBeLessThan(4 * DAY)
    expect((await endpoint(e.id))!.enabled).toBe(1)
    // a second event on the fourth day, failing on past the fifth
    const second = await deliveryTo(e.id)
    now = start + 4 * DAY
    let outcome
    for (;;) {
      outcome = await attemptDelivery(env, { id: second }, { now, random: middle })
      if (outcome.kind !== 'retry') break
      expect(now - start).toBeLessThan(5 * DAY)
      now = Date.parse((await delivery(second))!.next_at!)
    }
    expect(outcome).toEqual({ kind: 'failed', endpointOff: 'failing' })
    expect(now - start).toBeGreaterThanOrEqual(5 * DAY)
    expect(await endpoint(e.id)).toMatchObject({ enabled: 0, disabled_reason: 'failing' })
    // the agency's address (AGENCY_NOTIFY_EMAIL, else AGENCY_EMAIL) has the e-mail
    const agency = env.AGENCY_NOTIFY_EMAIL || env.AGENCY_EMAIL
    const deadline = Date.now() + 60_000
    let mail
    while (!mail && Date.now() < deadline) {
      mail = (await mailsTo(agency)).find((m) => m.body_text.includes(named))
      if (!mail) await new Promise((r) => setTimeout(r, 100))
    }
    expect(mail?.subject).toContain('Webhook turned off')
    expect(mail?.body_text).toContain('/desk/integrations')
    expect(mail?.body_text).toContain(`${env.WEBHOOK_RECEIVER_URL}/fail/…`)
    expect(mail?.body_text).not.toContain(e.path)
  })

  it('a restart between attempts loses nothing: the cron sends the lost message again', async () => {
    const e = await makeEndpoint({ path: pathFor('ok') })
    // written, its queue message lost (deliveryTo queues nothing)
    const id = await deliveryTo(e.id)
    // a minute overdue, the five-minute cron finds it and the queue's consumer delivers it
    expect(await requeueOverdue(env, Date.now() + 2 * 60_000)).toContain(id)
    await receivedAtLeast(e.path, 1)
    const deadline = Date.now() + 30_000
    while ((await delivery(id))!.status !== 'done' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50))
    expect((await delivery(id))!.status).toBe('done')
  })

  it('an attempt that died with its Worker is made again once its claim runs out', async () => {
    const e = await makeEndpoint({ path: pathFor('ok') })
    const id = await deliveryTo(e.id)
    const { next_at } = (await delivery(id))!
    // claimed (the attempt's lease), then the Worker went
    await env.DB.prepare('UPDATE webhook_deliveries SET next_at = ? WHERE id = ?')
      .bind(new Date(Date.now() + 2 * 60_000).toISOString(), id)
      .run()
    expect(await requeueOverdue(env, Date.now())).not.toContain(id)
    expect(await requeueOverdue(env, Date.now() + 4 * 60_000)).toContain(id)
    expect(next_at).not.toBeNull()
  })
})

describe('only the internet, checked again when sent', () => {
  for (const [what, url] of [
    ['a loopback address', 'https://127.0.0.1:9/hook'],
    ['a private address', 'https://10.1.2.3/hook'],
    ['localhost', 'https://localhost:9/hook'],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['plain http', 'http://hooks.example.com/hook'],
  ])
    it(`refuses ${what} in production settings, with no request`, async () => {
      const e = await makeEndpoint({ path: pathFor('ok'), url })
      const id = await deliveryTo(e.id)
      expect((await attemptDelivery(production, { id })).kind).toBe('retry')
      const [attempt] = await attempts(id)
      expect(attempt).toMatchObject({ status: null })
      expect(attempt.error).toMatch(/^refused: (private|localhost|not_https)$/)
    })

  it('does not follow a 302 to a local address: the attempt failed, nothing reached it', async () => {
    const e = await makeEndpoint({ path: pathFor('redirect') })
    const id = await deliveryTo(e.id)
    expect((await attemptDelivery(env, { id })).kind).toBe('retry')
    expect(await attempts(id)).toMatchObject([{ status: 302, error: 'redirect_not_followed' }])
    const { event_id } = (await delivery(id))!
    const followed = (await received('/ok/redirected')).filter(
      (r) => r.headers['webhook-id'] === event_id,
    )
    expect(followed).toEqual([])
  })
})

describe('signatures', () => {
  it('verify with standardwebhooks; the same delivery with a timestamp over 5 minutes old does not', async () => {
    const e = await makeEndpoint({ path: pathFor('ok') })
    const id = await deliveryTo(e.id)
    await attemptDelivery(env, { id })
    const [got] = await received(e.path)
    expect(new Webhook(e.secret).verify(got.body, signatureHeaders(got))).toMatchObject({
      type: 'webhook.test',
    })
    expect(got.headers['content-type']).toBe('application/json')
    // an attempt signed six minutes ago (its body and signature intact) is refused as old
    const old = await deliveryTo(e.id)
    const sixMinutesAgo = Date.now() - 6 * 60_000
    await env.DB.prepare('UPDATE webhook_deliveries SET next_at = ? WHERE id = ?')
      .bind(new Date(sixMinutesAgo - 1000).toISOString(), old)
      .run()
    await attemptDelivery(env, { id: old }, { now: sixMinutesAgo })
    const replayed = (await received(e.path))[1]
    expect(() => new Webhook(e.secret).verify(replayed.body, signatureHeaders(replayed))).toThrow(
      /too old/,
    )
    expect(() => new Webhook(e.secret).verify(got.body + ' ', signatureHeaders(got))).toThrow()
  })

  it('a rotated secret: old and new both verify for 24 hours, then the new one only', async () => {
    const e = await makeEndpoint({ path: pathFor('ok') })
    const fresh = await rotateSecret(env.DB, e.id)
    expect(fresh).toMatch(/^whsec_/)
    const during = await deliveryTo(e.id)
    await attemptDelivery(env, { id: during })
    const [a] = await received(e.path)
    expect(String(a.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(() => new Webhook(e.secret).verify(a.body, signatureHeaders(a))).not.toThrow()
    expect(() => new Webhook(fresh!).verify(a.body, signatureHeaders(a))).not.toThrow()
    // rotated 25 hours ago: the old secret signs no more
    const e2 = await makeEndpoint({ path: pathFor('ok') })
    const newer = await rotateSecret(env.DB, e2.id, Date.now() - 25 * 3600_000)
    const after = await deliveryTo(e2.id)
    await attemptDelivery(env, { id: after })
    const [b] = await received(e2.path)
    expect(String(b.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(() => new Webhook(newer!).verify(b.body, signatureHeaders(b))).not.toThrow()
    expect(() => new Webhook(e2.secret).verify(b.body, signatureHeaders(b))).toThrow()
  })

  it('a second rotation within the 24 hours keeps the receiver’s secret signing, not the one shown between', async () => {
    const e = await makeEndpoint({ path: pathFor('ok') })
    const between = await rotateSecret(env.DB, e.id)
    const latest = await rotateSecret(env.DB, e.id)
    const id = await deliveryTo(e.id)
    await attemptDelivery(env, { id })
    const [got] = await received(e.path)
    expect(() => new Webhook(e.secret).verify(got.body, signatureHeaders(got))).not.toThrow()
    expect(() => new Webhook(latest!).verify(got.body, signatureHeaders(got))).not.toThrow()
    expect(() => new Webhook(between!).verify(got.body, signatureHeaders(got))).toThrow()
  })
})

describe('a delivery whose attempt itself fails', () => {
  it('is given up after its third failed message, with the error in its log, not tried forever', async () => {
    const e = await makeEndpoint({ path: pathFor('ok') })
    const id = await deliveryTo(e.id)
    // its event unreadable: every attempt throws the same way
    await env.DB.prepare(
      'UPDATE webhook_events SET data = ? WHERE id = (SELECT event_id FROM webhook_deliveries WHERE id = ?)',
    )
      .bind('{', id)
      .run()
    const outcomes: string[] = []
    const message = (attempts: number) => ({
      body: { id },
      attempts,
      ack: () => outcomes.push('ack'),
      retry: () => outcomes.push('retry'),
    })
    const batch = (attempts: number) =>
      ({ queue: 'growth-agency-webhooks', messages: [message(attempts)] }) as never
    await consumeWebhooks(batch(1), env)
    expect(outcomes).toEqual(['retry'])
    expect((await delivery(id))!.status).toBe('pending')
    // the third message, once the claim the first took has run out
    await consumeWebhooks(batch(3), env, { now: Date.now() + 5 * 60_000 })
    expect(outcomes).toEqual(['retry', 'ack'])
    expect((await delivery(id))!.status).toBe('failed')
    const [logged] = await attempts(id)
    expect(logged.status).toBeNull()
    expect(logged.error).toMatch(/JSON/)
    expect(await received(e.path)).toEqual([])
  })
})

describe('a run of failures', () => {
  it('starts again after a quiet spell: an outage long past never turns an endpoint off at its next failure', async () => {
    const e = await makeEndpoint({ path: pathFor('fail') })
    const old = await deliveryTo(e.id)
    // (a minute on: the deliveries written below are due by then)
    const now = Date.now() + 60_000
    // failing seven days ago; its last attempt four days ago, then no event for days
    await env.DB.batch([
      env.DB.prepare('UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?').bind(
        new Date(now - 7 * DAY).toISOString(),
        e.id,
      ),
      env.DB.prepare(
        `INSERT INTO webhook_attempts (delivery_id, endpoint_id, at, status, duration_ms)
         VALUES (?, ?, ?, 500, 10)`,
      ).bind(old, e.id, new Date(now - 4 * DAY).toISOString()),
      env.DB.prepare(
        "UPDATE webhook_deliveries SET status = 'failed', next_at = NULL WHERE id = ?",
      ).bind(old),
    ])
    const fresh = await deliveryTo(e.id)
    const outcome = await attemptDelivery(env, { id: fresh }, { now, random: middle })
    expect(outcome.kind).toBe('retry')
    expect(await endpoint(e.id)).toMatchObject({
      enabled: 1,
      failing_since: new Date(now).toISOString(),
    })
    // while attempts keep coming, the run goes on from its first failure
    const next = Date.parse((await delivery(fresh))!.next_at!)
    await attemptDelivery(env, { id: fresh }, { now: next, random: middle })
    expect((await endpoint(e.id))!.failing_since).toBe(new Date(now).toISOString())
  })
})
