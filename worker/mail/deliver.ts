import {
  claimMail,
  isSuppressed,
  markFailed,
  markRetry,
  markSent,
  markSuppressed,
  unclaimMail,
} from '../db/outbox'
import type { Bindings } from '../bindings'
import { emailHash } from '../hash'
import { holdUntil, realClock, reserveSlot, type Clock } from './pace'
import { mailProvider } from './providers'
import { errorText } from './providers/provider'
import { renderMail } from './render'
import { isMailKind, TEMPLATES } from './templates'

/** Attempts per e-mail (the queue's max_retries + 1 in wrangler.toml). */
export const MAX_ATTEMPTS = 7

/** 30 s, 1, 2, 4, 8 min, capped at 10: a provider's bad minute passes, a bad hour is retried. */
export const retryDelay = (attempt: number) => Math.min(30 * 2 ** (attempt - 1), 600)

/** How long a sender waits in place for its slot; further ahead, it comes back later. */
export const MAX_SLOT_WAIT_MS = 5_000

/**
 * `retryIn`: a failed attempt, tried again after the delay. `waitFor`: the provider's pace or
 * its 429 said "later": not an attempt, the e-mail comes back after that many seconds.
 */
export type Delivery = { done: true } | { retryIn: number } | { waitFor: number }

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
export async function deliver(
  env: Bindings,
  id: number,
  attempt: number,
  clock: Clock = realClock,
): Promise<Delivery> {
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
    const slot = await reserveSlot(
      env.DB,
      provider.name,
      provider.rate,
      clock.now(),
      MAX_SLOT_WAIT_MS,
    )
    if ('busyUntil' in slot) {
      await unclaimMail(env.DB, id, null)
      return { waitFor: Math.max(1, Math.ceil((slot.busyUntil - clock.now()) / 1000)) }
    }
    if (slot.at > clock.now()) await clock.sleep(slot.at - clock.now())
    const result = await provider.send(message)
    if (result.ok) {
      await recordSent(env, id, provider.name, result.messageId, secret)
      return { done: true }
    }
    if (result.retryAfter !== undefined) {
      // a 429: the provider's "later" holds for every sender, and costs this e-mail no attempt
      const wait = Math.max(1, Math.ceil(result.retryAfter))
      await holdUntil(env.DB, provider.name, clock.now() + wait * 1000)
      await unclaimMail(env.DB, id, result.error)
      return { waitFor: wait }
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
