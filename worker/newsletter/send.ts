import type { OutboxRow } from '../db/outbox'
import type { Bindings } from '../bindings'
import { emailHash } from '../hash'
import { MAX_ATTEMPTS, MAX_SLOT_WAIT_MS, retryDelay } from '../mail/deliver'
import type { MailMessage } from '../mail/letter'
import { holdUntil, realClock, reserveSlot, type Clock } from '../mail/pace'
import { mailProvider } from '../mail/providers'
import { errorText, type MailProvider } from '../mail/providers/provider'
import { renderMany } from '../mail/render'

/**
 * Sending an issue to tens of thousands, as listmonk does: in steps, each one queue message
 * (NEWSLETTER_QUEUE) that does a bounded amount of work and queues the next. A step writes the
 * issue's e-mails into the outbox a chunk of subscribers at a time (a cursor over their ids),
 * takes them a batch at a time (100 for Resend's /emails/batch, one for SMTP), checks each
 * address against unsubscribes and the suppression list, waits for the provider's pace and
 * makes the call. A 429 is a wait for as long as Retry-After says, never a failed attempt; a 5xx
 * retries the same batch, under the same idempotency key, after a growing delay.
 */

/** The queue of the sending steps (wrangler.toml). */
export const NEWSLETTER_QUEUE = 'growth-agency-newsletters'

/** The queue message of a sending step. */
export interface NewsletterJob {
  issue: number
}

/** Subscribers whose e-mails one statement writes: a few milliseconds of D1 at most. */
export const CHUNK = 1000
/** Provider calls one step makes (each ~6 D1 statements): far inside 1,000 subrequests. */
export const CALLS_PER_STEP = 40
/** Claims one step makes at most (a batch wholly unsubscribed makes no call): ~7 statements each. */
const ROUNDS_PER_STEP = 100
/** A row left `sending` this long belongs to a step that died: its batch goes again. */
const STUCK_MS = 10 * 60_000

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * The next chunk of the issue's e-mails, one per confirmed subscriber after the cursor, each in
 * the subscriber's language where the issue has it (else English, marked as such). The unique
 * index (newsletter_id, to_address) makes a chunk written twice insert nothing the second time;
 * the cursor moves only from where this step read it. The number of subscribers the chunk held.
 */
async function writeChunk(db: D1Database, issue: number, siteUrl: string, cursor: number) {
  const chunk = `SELECT id FROM subscribers WHERE status = 'confirmed' AND id > ?2
                 ORDER BY id LIMIT ${CHUNK}`
  const [, moved] = await db.batch<{ n: number }>([
    db
      .prepare(
        `INSERT INTO mail_outbox
           (kind, data, category, language, to_address, site_url, subject, newsletter_id)
         SELECT 'newsletter', json_object('issue', ?1), 'marketing',
                coalesce(t.lang, 'en'), s.email, ?3, coalesce(t.subject, en.subject), ?1
         FROM subscribers s
         JOIN newsletter_texts en ON en.issue_id = ?1 AND en.lang = 'en'
         LEFT JOIN newsletter_texts t ON t.issue_id = ?1 AND t.lang = s.language
         WHERE s.id IN (${chunk})
         ON CONFLICT DO NOTHING`,
      )
      .bind(issue, cursor, siteUrl),
    db
      .prepare(
        `UPDATE newsletter_issues SET
           cursor = coalesce((SELECT max(id) FROM (${chunk})), cursor),
           written = written + (SELECT COUNT(*) FROM (${chunk})),
           written_at = CASE WHEN (SELECT COUNT(*) FROM (${chunk})) < ${CHUNK} THEN ?3 END
         WHERE id = ?1 AND cursor = ?2
         RETURNING (SELECT COUNT(*) FROM (${chunk})) AS n`,
      )
      .bind(issue, cursor, new Date().toISOString()),
  ])
  return moved.results[0]?.n ?? 0
}

/** A batch to send: a retry whose time has come first, else the next fresh e-mails. */
async function claimBatch(db: D1Database, issue: number, size: number, now: number) {
  const retry = await db
    .prepare(
      `UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, updated_at = ?3
       WHERE status = 'queued' AND batch_key = (
         SELECT batch_key FROM mail_outbox
         WHERE newsletter_id = ?1 AND status = 'queued' AND batch_key IS NOT NULL
           AND not_before <= ?2
         ORDER BY not_before LIMIT 1)
       RETURNING *`,
    )
    .bind(issue, iso(now), iso(now))
    .all<OutboxRow & { batch_key: string }>()
  if (retry.results.length) return { rows: retry.results, fresh: false }
  const key = `newsletter-${issue}-${crypto.randomUUID()}`
  const fresh = await db
    .prepare(
      `UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, batch_key = ?3,
         updated_at = ?4
       WHERE id IN (SELECT id FROM mail_outbox
                    WHERE newsletter_id = ?1 AND status = 'queued' AND batch_key IS NULL
                    ORDER BY id LIMIT ?2)
       RETURNING *`,
    )
    .bind(issue, size, key, iso(now))
    .all<OutboxRow & { batch_key: string }>()
  return { rows: fresh.results, fresh: true }
}

/**
 * Before its first call a batch drops every address that unsubscribed, was erased or is on the
 * suppression list (a bounce, a complaint) since its e-mail was written. After that call the
 * batch is fixed: a retry repeats it whole, the provider recognising the key.
 */
async function dropUnreachable(db: D1Database, rows: OutboxRow[]) {
  const hashes = await Promise.all(rows.map((r) => emailHash(r.to_address)))
  const [suppressed, confirmed] = await db.batch<{ hit: string }>([
    db
      .prepare(
        `SELECT email_hash AS hit FROM mail_suppressions
         WHERE email_hash IN (SELECT value FROM json_each(?))`,
      )
      .bind(JSON.stringify(hashes)),
    db
      .prepare(
        `SELECT email AS hit FROM subscribers
         WHERE status = 'confirmed' AND email IN (SELECT value FROM json_each(?))`,
      )
      .bind(JSON.stringify(rows.map((r) => r.to_address))),
  ])
  const blocked = new Set(suppressed.results.map((r) => r.hit))
  const reachable = new Set(confirmed.results.map((r) => r.hit))
  const drop = rows.filter((r, i) => blocked.has(hashes[i]) || !reachable.has(r.to_address))
  if (drop.length)
    await db
      .prepare(
        `UPDATE mail_outbox SET status = 'suppressed', updated_at = ?
         WHERE id IN (SELECT value FROM json_each(?)) AND status = 'sending'`,
      )
      .bind(new Date().toISOString(), JSON.stringify(drop.map((r) => r.id)))
      .run()
  return rows.filter((r) => !drop.includes(r))
}

type Outcome =
  | { ok: true; messageIds: (string | null)[] }
  | { ok: false; retry: boolean; error: string; retryAfter?: number }

/** One call: the provider's batch API, or its single send for a batch of one. */
async function call(provider: MailProvider, messages: MailMessage[], key: string) {
  if (provider.batch) return provider.batch.send(messages, key)
  const result = await provider.send(messages[0])
  return result.ok ? { ok: true as const, messageIds: [result.messageId] } : result
}

/** What the call's outcome does to the batch's rows. */
async function record(
  db: D1Database,
  provider: string,
  key: string,
  rows: OutboxRow[],
  outcome: Outcome,
  now: number,
) {
  if (outcome.ok) {
    const sent = rows.map((r, i) => ({ id: r.id, m: outcome.messageIds[i] ?? null }))
    return db
      .prepare(
        `UPDATE mail_outbox SET status = 'sent', provider = ?1, last_error = NULL,
           not_before = NULL, sent_at = ?2, updated_at = ?2,
           provider_message_id = (SELECT json_extract(value, '$.m') FROM json_each(?3)
                                  WHERE json_extract(value, '$.id') = mail_outbox.id)
         WHERE id IN (SELECT json_extract(value, '$.id') FROM json_each(?3))`,
      )
      .bind(provider, iso(now), JSON.stringify(sent))
      .run()
  }
  if (outcome.retryAfter !== undefined)
    // the provider's "later": the attempt is given back
    return db
      .prepare(
        `UPDATE mail_outbox SET status = 'queued', attempts = max(attempts - 1, 0),
           last_error = ?1, not_before = ?2, updated_at = ?3
         WHERE batch_key = ?4 AND status = 'sending'`,
      )
      .bind(outcome.error, iso(now + outcome.retryAfter * 1000), iso(now), key)
      .run()
  // a failure that may pass comes back after the retry delay of its attempt; after the last
  // attempt, or a refusal of the messages, the rows fail (the desk can send them again)
  const attempts = rows[0]?.attempts ?? 1
  const again = outcome.retry && attempts < MAX_ATTEMPTS
  return db
    .prepare(
      `UPDATE mail_outbox SET status = ?1, provider = ?2, last_error = ?3, not_before = ?4,
         updated_at = ?5
       WHERE batch_key = ?6 AND status = 'sending'`,
    )
    .bind(
      again ? 'queued' : 'failed',
      provider,
      `${outcome.error} (attempt ${attempts})`.slice(0, 500),
      again ? iso(now + retryDelay(attempts) * 1000) : null,
      iso(now),
      key,
    )
    .run()
}

/** Back to waiting, not counted, until `until` (the provider's pace is further ahead). */
const release = (db: D1Database, key: string, until: number, now: number) =>
  db
    .prepare(
      `UPDATE mail_outbox SET status = 'queued', attempts = max(attempts - 1, 0),
         not_before = ?1, updated_at = ?2
       WHERE batch_key = ?3 AND status = 'sending'`,
    )
    .bind(iso(until), iso(now), key)
    .run()

/** The end of a send: nothing left queued or sending. */
async function finishIfDone(db: D1Database, issue: number, now: number) {
  const left = await db
    .prepare(
      `SELECT COUNT(*) AS n, min(not_before) AS next FROM mail_outbox
       WHERE newsletter_id = ? AND status IN ('queued', 'sending')`,
    )
    .bind(issue)
    .first<{ n: number; next: string | null }>()
  if (left && left.n > 0) {
    const next = left.next ? Date.parse(left.next) : now + 60_000
    return { next: Math.max(1, Math.ceil((next - now) / 1000)) }
  }
  await db
    .prepare(
      `UPDATE newsletter_issues SET status = 'sent', finished_at = ?1, updated_at = ?1
       WHERE id = ?2 AND status = 'sending'`,
    )
    .bind(iso(now), issue)
    .run()
  return { next: null }
}

/** What a step did, and when the next should run (seconds from now; null: the send is done). */
export interface StepResult {
  calls: number
  next: number | null
}

/** One step of an issue's send (the newsletter queue's consumer runs one per message). */
export async function sendStep(
  env: Bindings,
  issue: number,
  clock: Clock = realClock,
): Promise<StepResult> {
  const db = env.DB
  const state = await db
    .prepare(
      `UPDATE newsletter_issues SET pumped_at = ?1 WHERE id = ?2 AND status = 'sending'
       RETURNING cursor, site_url, written_at`,
    )
    .bind(iso(clock.now()), issue)
    .first<{ cursor: number; site_url: string; written_at: string | null }>()
  if (!state) return { calls: 0, next: null }
  // batches a dead step left half-done go again, under their own keys
  await db
    .prepare(
      `UPDATE mail_outbox SET status = 'queued', attempts = max(attempts - 1, 0), not_before = ?1
       WHERE newsletter_id = ?2 AND status = 'sending' AND updated_at < ?3`,
    )
    .bind(iso(clock.now()), issue, iso(clock.now() - STUCK_MS))
    .run()
  const provider = mailProvider(env)
  const size = provider.batch?.size ?? 1
  let { cursor } = state
  let writing = state.written_at === null
  let calls = 0
  for (let round = 0; calls < CALLS_PER_STEP && round < ROUNDS_PER_STEP; round++) {
    const { rows: claimed, fresh } = await claimBatch(db, issue, size, clock.now())
    if (!claimed.length) {
      if (!writing) return { calls, ...(await finishIfDone(db, issue, clock.now())) }
      const n = await writeChunk(db, issue, state.site_url, cursor)
      if (n < CHUNK) writing = false
      const read = await db
        .prepare('SELECT cursor FROM newsletter_issues WHERE id = ?')
        .bind(issue)
        .first<{ cursor: number }>()
      cursor = read?.cursor ?? cursor
      continue
    }
    const key = claimed[0].batch_key
    const rows = fresh ? await dropUnreachable(db, claimed) : claimed
    if (!rows.length) continue
    let outcome: Outcome
    try {
      const messages = await renderMany(env, rows)
      const slot = await reserveSlot(
        db,
        provider.name,
        provider.rate,
        clock.now(),
        MAX_SLOT_WAIT_MS,
      )
      if ('busyUntil' in slot) {
        await release(db, key, slot.busyUntil, clock.now())
        return { calls, next: Math.max(1, Math.ceil((slot.busyUntil - clock.now()) / 1000)) }
      }
      if (slot.at > clock.now()) await clock.sleep(slot.at - clock.now())
      calls++
      outcome = await call(provider, messages, key)
    } catch (err) {
      // a template or the database failed us: not the provider's doing, but it may pass
      outcome = { ok: false, retry: true, error: errorText(err) }
    }
    if (!outcome.ok && outcome.retryAfter !== undefined)
      await holdUntil(db, provider.name, clock.now() + outcome.retryAfter * 1000)
    await record(db, provider.name, key, rows, outcome, clock.now())
  }
  return { calls, next: 0 }
}

/**
 * Starts an issue: `sending`, its audience counted, its first step queued. From `draft` or
 * `scheduled` only, once (a second start finds it sending). Whether it started.
 */
export async function startIssue(env: Bindings, issue: number, by: string) {
  const db = env.DB
  const at = new Date().toISOString()
  const started = await db
    .prepare(
      `UPDATE newsletter_issues SET status = 'sending', started_at = ?1, pumped_at = ?1,
         updated_at = ?1, updated_by = ?2,
         audience = (SELECT COUNT(*) FROM subscribers WHERE status = 'confirmed')
       WHERE id = ?3 AND status IN ('draft', 'scheduled')
         AND EXISTS (SELECT 1 FROM newsletter_texts WHERE issue_id = ?3 AND lang = 'en')
       RETURNING id`,
    )
    .bind(at, by, issue)
    .first()
  if (started) await queueStep(env, issue, 0)
  return started !== null
}

export async function queueStep(env: Bindings, issue: number, delaySeconds: number) {
  await env.NEWSLETTER_QUEUE.send({ issue } satisfies NewsletterJob, {
    contentType: 'json',
    delaySeconds: Math.min(Math.max(0, Math.ceil(delaySeconds)), 43_200),
  })
}

/** A step that did not follow within this long is started again by the cron. */
const STALLED_MS = 5 * 60_000

/**
 * The cron's part: scheduled issues whose time has come start; a send whose steps stopped
 * (a lost queue message) goes on. The issues started or resumed.
 */
export async function startDueIssues(env: Bindings, now = Date.now()) {
  const db = env.DB
  const { results: due } = await db
    .prepare(
      `SELECT id FROM newsletter_issues WHERE status = 'scheduled' AND send_at <= ? ORDER BY id`,
    )
    .bind(iso(now))
    .all<{ id: number }>()
  const started = []
  for (const { id } of due) if (await startIssue(env, id, 'schedule')) started.push(id)
  const { results: stalled } = await db
    .prepare(
      `SELECT id FROM newsletter_issues WHERE status = 'sending' AND pumped_at < ? ORDER BY id`,
    )
    .bind(iso(now - STALLED_MS))
    .all<{ id: number }>()
  for (const { id } of stalled) await queueStep(env, id, 0)
  return [...started, ...stalled.map((s) => s.id)]
}

/** The newsletter queue's consumer: one step per message, the next queued by the step. */
export async function consumeNewsletter(
  batch: MessageBatch<NewsletterJob>,
  env: Bindings,
  clock: Clock = realClock,
) {
  for (const message of batch.messages) {
    const issue = Number(message.body?.issue)
    if (!Number.isInteger(issue)) {
      message.ack()
      continue
    }
    try {
      const { next } = await sendStep(env, issue, clock)
      if (next !== null) await queueStep(env, issue, next)
      message.ack()
    } catch (err) {
      console.error('newsletter: step failed', issue, err)
      message.retry({ delaySeconds: 30 })
    }
  }
}
