import {
  createMessageBatch,
  env,
  getQueueResult,
  SELF,
  createExecutionContext,
} from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import en from '../../../locales/en.json'
import type { Bindings } from '../../../worker/bindings'
import { consumeMail, requeueStale, sendDigest } from '../../../worker/mail/queue'
import { deliver, MAX_ATTEMPTS } from '../../../worker/mail/deliver'
import type { MailJob } from '../../../worker/mail/enqueue'
import { withTokenFor } from '../challenge'
import { outboxRows } from '../inbox'
import { delivered, queuedRow, rowById, settled, unique } from './helpers'
import { randomIp } from '../random-ip'

const SITE = 'https://example.com'
/** JSON as the site's islands post it (with a challenge token where the form e-mails). */
const post = (path: string, body: unknown) =>
  SELF.fetch(SITE + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': randomIp() },
    body: JSON.stringify(withTokenFor(path, body)),
  })

afterEach(() => vi.restoreAllMocks())
// each test starts with the provider's pace free (one test's 429 holds it for the next calls)
beforeEach(async () => {
  await env.DB.exec('DELETE FROM mail_pace')
})

describe('a lead and its e-mail', () => {
  it('delivers the starter guide to a new subscriber, once', async () => {
    const email = unique('welcome')
    expect(
      (await post('/api/email-signup', { name: 'Ada', email, source: 'website' })).status,
    ).toBe(200)
    const [row] = await settled(email)
    expect(row).toMatchObject({
      kind: 'subscribe_confirm',
      status: 'sent',
      attempts: 1,
      language: 'en',
    })
    const mail = await delivered(email, /Confirm your subscription/)
    expect(mail.subject).toBe(en.mail.optin_subject)
    expect(mail.text).toContain('/guides/invisible-business-mistakes?lang=en')
    expect(mail.html).toContain(en.mail.welcome_action)
    expect(mail.html).toContain(en.mail.optin_action)
    // signing up again sends nothing more
    await post('/api/email-signup', { name: 'Ada', email, source: 'website' })
    expect(await outboxRows(email)).toHaveLength(1)
  })

  it('tells the agency of a contact message, with Reply-To the visitor', async () => {
    const email = unique('contact')
    // a name of its own: other files' bookings and messages reach the same agency inbox
    const name = `Grace Hopper ${email.slice(8, 16)}`
    const res = await post('/api/contact', {
      name,
      email,
      service: 'shopify',
      message: `Please call me back (${email}).`,
    })
    expect(res.status).toBe(200)
    const mail = await delivered(env.AGENCY_EMAIL, new RegExp(name))
    expect(mail.replyTo?.[0].address).toBe(email)
    expect(mail.text).toContain(`Please call me back (${email}).`)
  })

  it('stores neither the lead nor its e-mail when the e-mail cannot be written: a clear 503', async () => {
    const email = unique('atomic')
    await env.DB.exec('ALTER TABLE mail_outbox RENAME TO mail_outbox_away')
    try {
      const res = await post('/api/guide-requests', {
        name: 'Ada',
        email,
        guide: 'conversion-masterclass',
      })
      expect(res.status).toBe(503)
      expect(await res.json()).toEqual({ error: en.errors.unavailable })
    } finally {
      await env.DB.exec('ALTER TABLE mail_outbox_away RENAME TO mail_outbox')
    }
    const stored = await env.DB.prepare(
      'SELECT (SELECT COUNT(*) FROM subscribers WHERE email = ?1) + (SELECT COUNT(*) FROM guide_requests WHERE email = ?1) AS n',
    )
      .bind(email)
      .first<{ n: number }>()
    expect(stored!.n).toBe(0)
  })
})

/** Resend's API answering with each of `answers` in turn; the calls it received. */
function resendAnswers(...answers: [number, unknown, HeadersInit?][]) {
  const calls: Request[] = []
  const real = globalThis.fetch
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init)
    if (new URL(request.url).host !== 'api.resend.com') return real(input, init)
    calls.push(request)
    const [status, body, headers] = answers[Math.min(calls.length, answers.length) - 1]
    return Response.json(body, { status, headers })
  })
  return calls
}

const resend: Bindings = { ...env, MAIL_PROVIDER: 'resend', RESEND_API_KEY: 're_test' }

describe('delivery through an HTTP provider (Resend)', () => {
  it('sends once with the outbox id as the idempotency key, and records the message id', async () => {
    const calls = resendAnswers([200, { id: 're_123' }])
    const id = await queuedRow({
      kind: 'guide',
      data: { name: 'Ada', guide: 'conversion-masterclass' },
    })
    expect(await deliver(resend, id, 1)).toEqual({ done: true })
    expect(calls).toHaveLength(1)
    expect(calls[0].headers.get('Idempotency-Key')).toBe(`outbox-${id}`)
    expect(calls[0].headers.get('Authorization')).toBe('Bearer re_test')
    const body = (await calls[0].json()) as { subject: string; html: string; text: string }
    expect(body.subject).toContain('Conversion')
    expect(body.html).toContain('<html')
    expect(await rowById(id)).toMatchObject({
      status: 'sent',
      provider: 'resend',
      provider_message_id: 're_123',
    })
    // the queue delivers the same message again: nothing more is sent
    expect(await deliver(resend, id, 2)).toEqual({ done: true })
    expect(calls).toHaveLength(1)
  })

  it('retries after a 503 with a growing delay, then sends', async () => {
    const calls = resendAnswers(
      [503, { message: 'busy' }],
      [503, { message: 'busy' }],
      [200, { id: 're_ok' }],
    )
    const id = await queuedRow({ kind: 'auth_reauthentication', data: { code: '111222' } })
    const first = await deliver(resend, id, 1)
    const second = await deliver(resend, id, 2)
    expect(first).toEqual({ retryIn: 30 })
    expect(second).toEqual({ retryIn: 60 })
    expect(await rowById(id)).toMatchObject({ status: 'queued', attempts: 2 })
    expect((await rowById(id))!.last_error).toContain('503')
    expect(await deliver(resend, id, 3)).toEqual({ done: true })
    expect(calls).toHaveLength(3)
    const sent = await rowById(id)
    expect(sent).toMatchObject({ status: 'sent', attempts: 3, last_error: null })
    // the one-time code is not kept once sent
    expect(sent!.data).toBe('{}')
  })

  it('waits out a 429 for as long as Retry-After says: no attempt spent, no call before', async () => {
    const calls = resendAnswers(
      [429, { message: 'Too many requests' }, { 'Retry-After': '7' }],
      [200, { id: 're_later' }],
    )
    const id = await queuedRow({ kind: 'auth_reauthentication', data: { code: '333444' } })
    expect(await deliver(resend, id, 1)).toEqual({ waitFor: 7 })
    expect(await rowById(id)).toMatchObject({ status: 'queued', attempts: 0 })
    expect((await rowById(id))!.last_error).toContain('429')
    // a second try within the 7 seconds makes no call: the provider's pace holds every sender
    const again = await deliver(resend, id, 1)
    expect('waitFor' in again && again.waitFor).toBeGreaterThanOrEqual(6)
    expect(calls).toHaveLength(1)
    expect(await rowById(id)).toMatchObject({ status: 'queued', attempts: 0 })
    // once the time has passed, it goes
    const later = { now: () => Date.now() + 8_000, sleep: async () => {} }
    expect(await deliver(resend, id, 1, later)).toEqual({ done: true })
    expect(calls).toHaveLength(2)
    expect(await rowById(id)).toMatchObject({ status: 'sent', attempts: 1 })
  })

  it('gives up on a refusal at once, and after the last attempt on trouble', async () => {
    resendAnswers([422, { message: 'Invalid `to` field' }])
    const refused = await queuedRow({ kind: 'auth_reauthentication', data: { code: '1' } })
    expect(await deliver(resend, refused, 1)).toEqual({ done: true })
    expect(await rowById(refused)).toMatchObject({ status: 'failed' })
    expect((await rowById(refused))!.last_error).toMatch(/422.*Invalid/)
    vi.restoreAllMocks()
    resendAnswers([500, { message: 'down' }])
    const down = await queuedRow({ kind: 'auth_reauthentication', data: { code: '2' } })
    expect(await deliver(resend, down, MAX_ATTEMPTS)).toEqual({ done: true })
    expect(await rowById(down)).toMatchObject({ status: 'failed' })
  })

  it('asks the queue to retry, and records dead letters as failed', async () => {
    resendAnswers([503, { message: 'busy' }])
    const id = await queuedRow({
      kind: 'guide',
      data: { name: 'Ada', guide: 'conversion-masterclass' },
    })
    const batch = createMessageBatch<MailJob>('growth-agency-mail', [
      { id: 'm1', timestamp: new Date(), attempts: 1, body: { id } },
    ])
    const ctx = createExecutionContext()
    await consumeMail(batch, resend)
    const result = await getQueueResult(batch, ctx)
    expect(result.retryMessages).toEqual([expect.objectContaining({ msgId: 'm1' })])
    expect(result.explicitAcks).toEqual([])
    expect(await rowById(id)).toMatchObject({ status: 'queued', attempts: 1 })
    const dead = createMessageBatch<MailJob>('growth-agency-mail-dlq', [
      { id: 'm2', timestamp: new Date(), attempts: 7, body: { id } },
    ])
    await consumeMail(dead, resend)
    expect(await rowById(id)).toMatchObject({ status: 'failed' })
    expect((await rowById(id))!.last_error).toMatch(/dead-lettered/)
    // a dead-lettered sign-in code is not kept either
    const code = await queuedRow({ kind: 'auth_reauthentication', data: { code: '987654' } })
    await consumeMail(
      createMessageBatch<MailJob>('growth-agency-mail-dlq', [
        { id: 'm3', timestamp: new Date(), attempts: 7, body: { id: code } },
      ]),
      resend,
    )
    expect(await rowById(code)).toMatchObject({ status: 'failed', data: '{}' })
  })
})

describe('the cron', () => {
  it('puts e-mails left queued or stuck sending back on the queue', async () => {
    const lost = await queuedRow({
      kind: 'guide',
      data: { name: 'A', guide: 'conversion-masterclass' },
    })
    const stuck = await queuedRow({
      kind: 'guide',
      data: { name: 'B', guide: 'conversion-masterclass' },
    })
    const fresh = await queuedRow({
      kind: 'guide',
      data: { name: 'C', guide: 'conversion-masterclass' },
    })
    const old = new Date(Date.now() - 60 * 60_000).toISOString()
    await env.DB.batch([
      env.DB.prepare('UPDATE mail_outbox SET updated_at = ? WHERE id = ?').bind(old, lost),
      env.DB.prepare("UPDATE mail_outbox SET status = 'sending', updated_at = ? WHERE id = ?").bind(
        old,
        stuck,
      ),
    ])
    const sent = vi.spyOn(env.MAIL_QUEUE, 'sendBatch')
    const ids = await requeueStale(env)
    expect(ids).toEqual(expect.arrayContaining([lost, stuck]))
    expect(ids).not.toContain(fresh)
    expect((await rowById(stuck))!.status).toBe('queued')
    expect(
      sent.mock.calls.flatMap(([messages]) =>
        [...messages].map((m) => (m.body as { id: number }).id),
      ),
    ).toEqual(expect.arrayContaining([lost, stuck]))
  })

  it("sends the agency one digest of the day's subscribers and guide downloads", async () => {
    const email = unique('digest')
    await post('/api/newsletter', { email })
    const id = await sendDigest(env, new Date(Date.now() + 1000))
    expect(id).toBeTypeOf('number')
    const row = await rowById(id!)
    expect(row).toMatchObject({
      kind: 'agency_digest',
      to_address: env.AGENCY_EMAIL,
      category: 'agency',
    })
    const mail = await delivered(env.AGENCY_EMAIL, /Daily digest/)
    expect(mail.text).toContain(email)
    // the next digest starts where this one ended: nothing new, nothing sent
    expect(await sendDigest(env, new Date(Date.now() + 2000))).toBeNull()
  })
})
