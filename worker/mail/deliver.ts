import {
  claimMail,
  isSuppressed,
  markFailed,
  markRetry,
  markSent,
  markSuppressed,
} from '../db/outbox'
import type { Bindings } from '../env'
import { emailHash } from '../hash'
import { mailProvider } from './providers'
import { errorText } from './providers/provider'
import { renderMail } from './render'
import { isMailKind, TEMPLATES } from './templates'

/** Attempts per e-mail (the queue's max_retries + 1 in wrangler.toml). */
export const MAX_ATTEMPTS = 7

/** 30 s, 1, 2, 4, 8 min, capped at 10: a provider's bad minute passes, a bad hour is retried. */
export const retryDelay = (attempt: number) => Math.min(30 * 2 ** (attempt - 1), 600)

export type Delivery = { done: true } | { retryIn: number }

/**
 * Once the provider took the message it must never be sent again: the record is retried here,
 * not the delivery (a row left `sending` is only re-queued by the cron after 10 minutes).
 */
async function recordSent(
  env: Bindings,
  id: number,
  provider: string,
  messageId: string,
  forget: boolean,
) {
  for (let tries = 1; ; tries++) {
    try {
      return await markSent(env.DB, id, provider, messageId, forget)
    } catch (err) {
      if (tries === 3) {
        console.error('mail: sent, but not recorded', id, err)
        return
      }
    }
  }
}

/**
 * Delivers one outbox e-mail, once: it is claimed (queued → sending) before anything is sent,
 * so a second delivery of the same queue message finds nothing to do; the result is recorded.
 */
export async function deliver(env: Bindings, id: number, attempt: number): Promise<Delivery> {
  const row = await claimMail(env.DB, id)
  if (!row) return { done: true }
  // the row counts every attempt, also across a re-queue by the cron (the queue's count restarts)
  attempt = Math.max(attempt, row.attempts)
  const secret = isMailKind(row.kind) && TEMPLATES[row.kind].secret === true
  try {
    if (
      row.category === 'marketing' &&
      (await isSuppressed(env.DB, await emailHash(row.to_address)))
    ) {
      await markSuppressed(env.DB, id)
      return { done: true }
    }
    const message = await renderMail(env, row)
    const provider = mailProvider(env)
    const result = await provider.send(message)
    if (result.ok) {
      await recordSent(env, id, provider.name, result.messageId, secret)
      return { done: true }
    }
    if (result.retry && attempt < MAX_ATTEMPTS) {
      await markRetry(env.DB, id, provider.name, result.error)
      return { retryIn: retryDelay(attempt) }
    }
    await markFailed(env.DB, id, `${result.error} (attempt ${attempt})`, secret)
    return { done: true }
  } catch (err) {
    // a template or the database failed us: not the provider's doing, but it may pass
    const error = errorText(err)
    if (attempt < MAX_ATTEMPTS) {
      await markRetry(env.DB, id, 'none', error)
      return { retryIn: retryDelay(attempt) }
    }
    await markFailed(env.DB, id, error, secret)
    return { done: true }
  }
}
