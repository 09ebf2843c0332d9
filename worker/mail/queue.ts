import { siteConfig } from '../config'
import { lastMailOf, markFailed, staleMail } from '../db/outbox'
import type { Bindings } from '../bindings'
import { createTranslator } from '../i18n/translator'
import { deliver, retryDelay } from './deliver'
import { realClock, type Clock } from './pace'
import { agencyLanguage, insertedIds, mailRow, sendJobs, type MailJob } from './enqueue'

/**
 * The mail queue's consumer: each message is one outbox id. The dead-letter queue's consumer
 * records as failed what the main consumer could not finish.
 */
export async function consumeMail(
  batch: MessageBatch<MailJob>,
  env: Bindings,
  clock: Clock = realClock,
) {
  const deadLetters = batch.queue.endsWith('-dlq')
  for (const message of batch.messages) {
    const id = Number(message.body?.id)
    if (!Number.isInteger(id)) {
      message.ack()
      continue
    }
    try {
      if (deadLetters) {
        await markFailed(env.DB, id, `dead-lettered after ${message.attempts} deliveries`)
        message.ack()
        continue
      }
      const result = await deliver(env, id, message.attempts, clock)
      if ('retryIn' in result) message.retry({ delaySeconds: result.retryIn })
      else if ('waitFor' in result) {
        // a wait is no failed delivery: a new message, so the queue's retry count is not spent
        await env.MAIL_QUEUE.send({ id }, { delaySeconds: result.waitFor, contentType: 'json' })
        message.ack()
      } else message.ack()
    } catch (err) {
      // the database itself is out of reach: the queue tries again later
      console.error('mail: delivery failed', id, err)
      message.retry({ delaySeconds: retryDelay(message.attempts) })
    }
  }
}

/** How long an e-mail may wait in `queued` before its queue message counts as lost. */
const QUEUED_TOO_LONG_MS = 15 * 60_000
/** How long a delivery may take before it counts as dead. */
const SENDING_TOO_LONG_MS = 10 * 60_000

/** Every few minutes: e-mails left behind go back on the queue. */
export async function requeueStale(env: Bindings, now = Date.now()) {
  const ids = await staleMail(
    env.DB,
    new Date(now - QUEUED_TOO_LONG_MS).toISOString(),
    new Date(now - SENDING_TOO_LONG_MS).toISOString(),
  )
  await sendJobs(env, ids)
  return ids
}

/** Daily: the agency's digest of new subscribers and guide downloads since the last one. */
export async function sendDigest(env: Bindings, now = new Date()) {
  const last = await lastMailOf(env.DB, 'agency_digest')
  const since = last
    ? (JSON.parse(last.data) as { until: string }).until
    : new Date(now.getTime() - 24 * 3600_000).toISOString()
  const until = now.toISOString()
  const [{ n }] = (
    await env.DB.prepare(
      `SELECT (SELECT COUNT(*) FROM subscribers WHERE created_at >= ?1 AND created_at < ?2)
            + (SELECT COUNT(*) FROM guide_requests WHERE created_at >= ?1 AND created_at < ?2) AS n`,
    )
      .bind(since, until)
      .all<{ n: number }>()
  ).results
  if (!n) return null
  const lang = agencyLanguage(env)
  const config = siteConfig(env)
  const row = await mailRow(
    { env, config, lang, t: createTranslator(lang) },
    'agency_digest',
    'agency',
    { since, until },
  )
  const [result] = await env.DB.batch([row])
  const ids = insertedIds([result], [0])
  await sendJobs(env, ids)
  return ids[0]
}
