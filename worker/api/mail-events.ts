import { Hono } from 'hono'
import { Webhook } from 'standardwebhooks'
import * as v from 'valibot'
import { markBounced, suppress } from '../db/outbox'
import type { AppEnv } from '../env'
import { emailHash } from '../hash'
import { limitBody } from '../middleware/form-guard'

/**
 * POST /api/mail/events: the mail provider's webhook (Resend's, signed by Svix: Standard Webhooks). A hard bounce
 * or a complaint puts the address on the suppression list, so no marketing mail reaches it again.
 */
export const mailEvents = new Hono<AppEnv>()

const EventSchema = v.object({
  type: v.string(),
  data: v.object({
    email_id: v.optional(v.string()),
    to: v.optional(v.array(v.string())),
    bounce: v.optional(v.object({ type: v.optional(v.string()) })),
  }),
})

mailEvents.post('/', limitBody(64 * 1024), async (c) => {
  const secret = c.env.RESEND_WEBHOOK_SECRET
  if (!secret) return c.json({ error: 'webhook not configured' }, 404)
  const payload = await c.req.text()
  let event: unknown
  try {
    // Svix signs Resend's webhooks by the Standard Webhooks scheme, under its own header names
    event = new Webhook(secret).verify(payload, {
      'webhook-id': c.req.header('svix-id') ?? '',
      'webhook-timestamp': c.req.header('svix-timestamp') ?? '',
      'webhook-signature': c.req.header('svix-signature') ?? '',
    })
  } catch {
    return c.json({ error: 'invalid signature' }, 401)
  }
  const parsed = v.safeParse(EventSchema, event)
  if (!parsed.success) return c.json({ error: c.var.t('errors.invalid') }, 400)
  const { type, data } = parsed.output
  // A transient bounce (a full mailbox) may pass; a permanent one, or a complaint, does not.
  const reason =
    type === 'email.complained'
      ? 'complaint'
      : type === 'email.bounced' && data.bounce?.type !== 'Transient'
        ? 'bounce'
        : null
  if (reason) {
    for (const address of data.to ?? []) await suppress(c.env.DB, await emailHash(address), reason)
    if (data.email_id)
      await markBounced(c.env.DB, data.email_id, reason, `${reason} reported by the provider`)
  }
  return c.json({ received: true })
})
