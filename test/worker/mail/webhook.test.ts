import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import app from '../../../worker/index'
import { emailHash } from '../../../worker/hash'
import { queuedRow, rowById, unique } from './helpers'

// The provider's bounce and complaint webhook (Resend's, signed by Svix).
const SECRET = `whsec_${btoa('a test signing secret for webhooks!')}`

async function hook(payload: unknown, sign = SECRET) {
  const body = JSON.stringify(payload)
  const id = `msg_${crypto.randomUUID()}`
  const at = new Date()
  const signature = new Webhook(sign).sign(id, at, body)
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request('https://example.com/api/mail/events', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'svix-id': id,
        'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
        'svix-signature': signature,
      },
      body,
    }),
    { ...env, RESEND_WEBHOOK_SECRET: SECRET },
    ctx,
  )
  await waitOnExecutionContext(ctx)
  return res
}

const suppressed = async (address: string) =>
  (
    await env.DB.prepare('SELECT reason FROM mail_suppressions WHERE email_hash = ?')
      .bind(await emailHash(address))
      .first<{ reason: string }>()
  )?.reason ?? null

describe('POST /api/mail/events', () => {
  it('refuses a payload with a bad signature and changes nothing', async () => {
    const to = unique('forged')
    const res = await hook(
      { type: 'email.bounced', data: { to: [to], bounce: { type: 'Permanent' } } },
      `whsec_${btoa('somebody else entirely, not us!')}`,
    )
    expect(res.status).toBe(401)
    expect(await suppressed(to)).toBeNull()
  })

  it('suppresses a hard-bounced address and marks its e-mail; marketing mail then skips it', async () => {
    const to = unique('bounced')
    const id = await queuedRow({
      kind: 'welcome',
      data: { name: 'Ada' },
      category: 'marketing',
      to_address: to,
    })
    await env.DB.prepare(
      "UPDATE mail_outbox SET status = 'sent', provider_message_id = 're_b1' WHERE id = ?",
    )
      .bind(id)
      .run()
    const res = await hook({
      type: 'email.bounced',
      data: { email_id: 're_b1', to: [to], bounce: { type: 'Permanent' } },
    })
    expect(res.status).toBe(200)
    expect(await suppressed(to)).toBe('bounce')
    expect(await rowById(id)).toMatchObject({
      status: 'failed',
      last_error: 'bounce reported by the provider',
    })

    const { deliver } = await import('../../../worker/mail/deliver')
    const next = await queuedRow({
      kind: 'welcome',
      data: { name: 'Ada' },
      category: 'marketing',
      to_address: to,
    })
    await deliver(env, next, 1)
    expect((await rowById(next))!.status).toBe('suppressed')
  })

  it('suppresses a complaint; a transient bounce passes', async () => {
    const angry = unique('complaint')
    expect((await hook({ type: 'email.complained', data: { to: [angry] } })).status).toBe(200)
    expect(await suppressed(angry)).toBe('complaint')
    const full = unique('mailbox-full')
    await hook({ type: 'email.bounced', data: { to: [full], bounce: { type: 'Transient' } } })
    expect(await suppressed(full)).toBeNull()
  })
})
