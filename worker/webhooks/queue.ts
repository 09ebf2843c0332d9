import type { Bindings } from '../bindings'
import {
  deliveryBroken,
  eventStatements,
  overdueDeliveries,
  purgeWebhooks,
  replayFailed,
  replayOne,
  rotateEndpointSecret,
} from '../db/webhooks'
import { siteConfig } from '../config'
import { agencyLanguage } from '../mail/enqueue'
import { attemptDelivery, type AttemptOptions, type WebhookJob } from './deliver'
import { ROTATION_OVERLAP_MS, newEventId, newSecret } from './sign'

/** The queue of deliveries (wrangler.toml): each message one delivery id. */
export const WEBHOOK_QUEUE = 'growth-agency-webhooks'

/** Cloudflare Queues' longest delay for a message (12 hours); a later attempt is re-delayed. */
export const MAX_QUEUE_DELAY_S = 12 * 3600

/** How long past its time an attempt may wait for its message before the cron sends another. */
const OVERDUE_MS = 60_000

/** How long the delivery log keeps attempts, and finished deliveries with their events. */
export const KEEP_MS = 30 * 24 * 3600_000

/** How many times one message may fail to make its attempt before the delivery is given up. */
const BROKEN_AFTER = 3

/**
 * The queue's consumer: each message one attempt (deliver.ts); a failure's next attempt and a
 * message come early go back on the queue for their time. D1 holds every delivery's state, so
 * a message lost (a restart, a deploy) costs only a delay: the cron sends another.
 */
export async function consumeWebhooks(
  batch: MessageBatch<WebhookJob>,
  env: Bindings,
  options: AttemptOptions = {},
) {
  await Promise.all(
    batch.messages.map(async (message) => {
      const id = Number(message.body?.id)
      if (!Number.isInteger(id)) return message.ack()
      try {
        const at = typeof message.body.at === 'string' ? message.body.at : undefined
        const outcome = await attemptDelivery(env, { id, at }, options)
        if (outcome.kind === 'retry' || outcome.kind === 'early')
          await queueRows(env, [{ id, next_at: outcome.nextAt }], options.now)
        message.ack()
      } catch (err) {
        console.error('webhooks: attempt failed', id, err)
        // the same failure a third time with D1 answering (it writes this): a fault of the
        // delivery, not of the moment; it is given up, its error in the log, not tried forever
        if (message.attempts >= BROKEN_AFTER) {
          const at = new Date(options.now ?? Date.now()).toISOString()
          const given = await deliveryBroken(env.DB, id, at, String(err)).catch(() => null)
          if (given) return message.ack()
        }
        // D1 out of reach: the queue tries again (the delivery's state is unchanged)
        message.retry({ delaySeconds: 30 })
      }
    }),
  )
}

/**
 * Queue messages for deliveries due at `next_at` (delayed until then, at most
 * MAX_QUEUE_DELAY_S), 100 a call. A queue that refuses is logged: the cron catches up.
 */
export async function queueRows(
  env: Bindings,
  rows: { id: number; next_at: string }[],
  now = Date.now(),
) {
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100)
    await env.WEBHOOK_QUEUE.sendBatch(
      chunk.map((r) => ({
        body: { id: r.id, at: r.next_at } satisfies WebhookJob,
        contentType: 'json' as const,
        delaySeconds: Math.min(
          Math.max(Math.ceil((Date.parse(r.next_at) - now) / 1000), 0),
          MAX_QUEUE_DELAY_S,
        ),
      })),
    ).catch((err) => console.error('webhooks: not queued, the cron will', chunk, err))
  }
}

/**
 * The five-minute cron: deliveries whose attempt is a minute overdue (their message lost, or
 * an attempt that died with its Worker) go back on the queue.
 */
export async function requeueOverdue(env: Bindings, now = Date.now()) {
  const rows = await overdueDeliveries(env.DB, new Date(now - OVERDUE_MS).toISOString())
  await queueRows(env, rows, now)
  return rows.map((r) => r.id)
}

/** The daily cron: the log's attempts, and finished deliveries and their events, after 30 days. */
export async function purgeOldWebhooks(env: Bindings, now = Date.now()) {
  const [attempts, deliveries, events] = await purgeWebhooks(
    env.DB,
    new Date(now - KEEP_MS).toISOString(),
  )
  return {
    webhookAttempts: attempts.meta.changes,
    webhookDeliveries: deliveries.meta.changes,
    webhookEvents: events.meta.changes,
  }
}

type Ctx = Pick<ExecutionContext, 'waitUntil'>

/**
 * The desk's "Send a test event": a `webhook.test` event to this endpoint alone, delivered
 * like any other. Its delivery's id, or null for no such endpoint.
 */
export async function sendTestEvent(env: Bindings, ctx: Ctx, endpointId: number) {
  const config = siteConfig(env)
  const id = newEventId()
  const results = await env.DB.batch(
    eventStatements(env.DB, {
      id,
      type: 'webhook.test',
      at: new Date().toISOString(),
      data: JSON.stringify({ language: agencyLanguage(env), site: config.siteUrl, personal: {} }),
      item: id,
      deskUrl: `${config.siteUrl}/desk/integrations`,
      endpointId,
    }),
  )
  const rows = results[1].results as { id: number; next_at: string }[]
  if (!rows.length) return null
  ctx.waitUntil(queueRows(env, rows))
  return rows[0].id
}

/** A new round of attempts for one delivery (pending, none made, due now). Whether it exists. */
export async function replayDelivery(env: Bindings, ctx: Ctx, deliveryId: number) {
  const { results } = await replayOne(env.DB, deliveryId, new Date().toISOString())
  if (results.length) ctx.waitUntil(queueRows(env, results))
  return results.length > 0
}

/** A new round for every delivery that failed since `sinceIso`. How many. */
export async function replayFailedSince(env: Bindings, ctx: Ctx, sinceIso: string) {
  const { results } = await replayFailed(env.DB, sinceIso, new Date().toISOString())
  if (results.length) ctx.waitUntil(queueRows(env, results))
  return results.length
}

/**
 * A new secret for the endpoint, returned once (to show); the one before keeps signing beside
 * it for 24 hours. Null for no such endpoint.
 */
export async function rotateSecret(db: D1Database, endpointId: number, now = Date.now()) {
  const secret = newSecret()
  const until = new Date(now + ROTATION_OVERLAP_MS).toISOString()
  const at = new Date(now).toISOString()
  return (await rotateEndpointSecret(db, endpointId, secret, until, at)) ? secret : null
}
