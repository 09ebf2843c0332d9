import { siteConfig } from '../config'
import type { Bindings } from '../bindings'
import {
  claimDelivery,
  deliveryDone,
  deliveryDropped,
  deliveryFailed,
  disableEndpoint,
  findDelivery,
  loadAttempt,
  recordAttempt,
  type AttemptRecord,
  type AttemptRow,
} from '../db/webhooks'
import { createTranslator } from '../i18n/translator'
import { agencyLanguage } from '../mail/enqueue'
import { isAllowedUrl } from './address'
import { tellManagers } from './notify'
import { slackBody, standardBody } from './payload'
import { cryptoRandom, nextDelay, retryAfterMs } from './schedule'
import { signedHeaders } from './sign'

/** One attempt's limit: the receiver answers within this, or the attempt has failed. */
export const ATTEMPT_TIMEOUT_MS = 15_000
/** How long a claimed attempt holds its delivery: one that dies with its Worker is due then. */
export const LEASE_MS = 2 * 60_000
/** An endpoint failing for this long (every attempt since its first failure) is turned off. */
export const FAILING_LIMIT_MS = 5 * 24 * 3600_000
/** How much of an answer the log keeps. */
const RESPONSE_CHARS = 500

/** The queue message of one delivery: its id, and the time of the attempt it was sent for. */
export interface WebhookJob {
  id: number
  at?: string
}

export type Outcome =
  /** a 2xx */
  | { kind: 'done' }
  /** failed; the next attempt is due at `nextAt` */
  | { kind: 'retry'; nextAt: string }
  /** failed for good: the schedule ran out, the endpoint answered 410 or is off */
  | { kind: 'failed'; endpointOff?: 'gone' | 'failing' }
  /** the message came before the attempt's time: it waits until `nextAt` */
  | { kind: 'early'; nextAt: string }
  /** nothing to do: done, failed, or another message's attempt */
  | { kind: 'skip' }

export interface AttemptOptions {
  /** The attempt's time (a test's clock). */
  now?: number
  random?: () => number
}

/**
 * One attempt of one delivery (docs/webhooks.md "Delivery"): claimed in D1 first, so two
 * messages for it make one attempt; the endpoint's address checked again; POSTed, signed,
 * with no redirect followed and a 15 s limit; the attempt recorded with what it changed. The
 * caller (queue.ts) puts the next attempt on the queue.
 */
export async function attemptDelivery(
  env: Bindings,
  job: WebhookJob,
  { now = Date.now(), random = cryptoRandom }: AttemptOptions = {},
): Promise<Outcome> {
  const db = env.DB
  const nowIso = new Date(now).toISOString()
  const claimed = await claimDelivery(
    db,
    job.id,
    job.at ?? null,
    nowIso,
    new Date(now + LEASE_MS).toISOString(),
  )
  if (!claimed) {
    const d = await findDelivery(db, job.id)
    const early =
      d?.status === 'pending' &&
      d.next_at &&
      d.next_at > nowIso &&
      (!job.at || job.at === d.next_at)
    return early ? { kind: 'early', nextAt: d.next_at! } : { kind: 'skip' }
  }
  const row = await loadAttempt(db, job.id)
  if (!row) return { kind: 'skip' }
  const endpoint = row.endpoint
  if (!endpoint.enabled) {
    await db.batch([
      recordAttempt(db, row.id, endpoint.id, failure(nowIso, 'endpoint_off')),
      deliveryDropped(db, row.id),
    ])
    return { kind: 'failed' }
  }
  const checked = isAllowedUrl(endpoint.url, env)
  if (!checked.ok)
    return failed(env, row, failure(nowIso, `refused: ${checked.reason}`), now, random)

  const body = bodyOf(env, row)
  const started = Date.now()
  let res: Response
  try {
    res = await fetch(checked.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': `${new URL(siteConfig(env).siteUrl).host} webhooks`,
        ...signedHeaders(row.event_id, new Date(now), body, endpoint),
      },
      body,
    })
  } catch (err) {
    const timedOut = err instanceof DOMException && err.name === 'TimeoutError'
    const error = timedOut ? 'timeout' : `network: ${String(err).slice(0, 200)}`
    return failed(
      env,
      row,
      { ...failure(nowIso, error), durationMs: Date.now() - started },
      now,
      random,
    )
  }
  const record: AttemptRecord = {
    at: nowIso,
    status: res.status,
    durationMs: Date.now() - started,
    response: await answerStart(res),
    error: res.status >= 300 && res.status < 400 ? 'redirect_not_followed' : null,
  }
  if (res.ok) {
    await db.batch([
      recordAttempt(db, row.id, endpoint.id, record),
      ...deliveryDone(db, row.id, endpoint.id, nowIso),
    ])
    return { kind: 'done' }
  }
  if (res.status === 410) {
    await db.batch([
      recordAttempt(db, row.id, endpoint.id, record),
      ...deliveryFailed(db, row.id, endpoint.id, nowIso, null),
      ...disableEndpoint(db, endpoint.id, 'gone', nowIso),
    ])
    return { kind: 'failed', endpointOff: 'gone' }
  }
  const wait =
    res.status === 429 || res.status === 503
      ? retryAfterMs(res.headers.get('Retry-After'), now)
      : null
  return failed(env, row, record, now, random, wait)
}

const failure = (at: string, error: string): AttemptRecord => ({
  at,
  status: null,
  durationMs: 0,
  response: null,
  error,
})

/**
 * A failed attempt: the next one by the schedule (a Retry-After longer than the schedule's
 * step is waited instead; it counts as a step either way), or failed once the schedule is
 * spent. An endpoint failing for FAILING_LIMIT_MS is turned off, and its managers told.
 */
async function failed(
  env: Bindings,
  row: AttemptRow,
  record: AttemptRecord,
  now: number,
  random: () => number,
  retryAfter: number | null = null,
): Promise<Outcome> {
  const db = env.DB
  const delay = nextDelay(row.attempts + 1, random)
  const nextAt =
    delay === null ? null : new Date(now + Math.max(delay, retryAfter ?? 0)).toISOString()
  const results = await db.batch([
    recordAttempt(db, row.id, row.endpoint_id, record),
    ...deliveryFailed(db, row.id, row.endpoint_id, record.at, nextAt),
  ])
  const since = (results[2].results[0] as { failing_since?: string } | undefined)?.failing_since
  if (since && now - Date.parse(since) >= FAILING_LIMIT_MS) {
    const [off] = await db.batch(disableEndpoint(db, row.endpoint_id, 'failing', record.at))
    const endpoint = off.results[0] as { url: string; description: string } | undefined
    if (endpoint) await tellManagers(env, { ...endpoint, since })
    return { kind: 'failed', endpointOff: 'failing' }
  }
  return nextAt ? { kind: 'retry', nextAt } : { kind: 'failed' }
}

/** The body for the endpoint's format: Standard Webhooks JSON, or a Slack message. */
function bodyOf(env: Bindings, row: AttemptRow) {
  const event = {
    id: row.event_id,
    type: row.type,
    created_at: row.event_created_at,
    data: row.data,
  }
  const personal = row.endpoint.personal === 1
  if (row.endpoint.format !== 'slack') return standardBody(event, personal)
  const lang = agencyLanguage(env)
  return slackBody(event, personal, {
    t: createTranslator(lang),
    lang,
    timeZone: siteConfig(env).timeZone,
  })
}

/** The start of an answer, for the log (the rest is not read). */
async function answerStart(res: Response) {
  if (!res.body) return null
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  try {
    while (text.length < RESPONSE_CHARS) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
  } catch {
    // an answer cut off: what came is enough
  } finally {
    reader.cancel().catch(() => {})
  }
  return Array.from(text).slice(0, RESPONSE_CHARS).join('') || null
}
