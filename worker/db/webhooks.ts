/**
 * The webhook engine's SQL (migrations/0037_webhooks.sql, docs/webhooks.md): events written
 * with the change they tell of, one delivery per event and endpoint, each attempt logged.
 * D1 is the truth; the queue only carries delivery ids.
 */

export interface EndpointRow {
  id: number
  url: string
  events: string
  format: 'standard' | 'slack'
  personal: number
  enabled: number
  secret: string
  previous_secret: string | null
  previous_until: string | null
  disabled_at: string | null
  disabled_reason: string | null
  failing_since: string | null
}

export interface DeliveryRow {
  id: number
  event_id: string
  endpoint_id: number
  status: 'pending' | 'done' | 'failed'
  attempts: number
  next_at: string | null
  created_at: string
  done_at: string | null
}

/** A delivery with its event and endpoint: everything one attempt needs. */
export interface AttemptRow extends DeliveryRow {
  type: string
  event_created_at: string
  data: string
  endpoint: EndpointRow
}

/** SQL giving a value at its place in a batch (an id written by a statement before it). */
export interface Sql {
  sql: string
  args: unknown[]
}

/** An enabled endpoint that wants events of the type bound (the endpoint's alias: `e`). */
const WANTS = `e.enabled = 1 AND EXISTS (SELECT 1 FROM json_each(e.events) WHERE value = ?)`

/**
 * An event and its deliveries, as two statements for the batch of the change they tell of
 * (after it: `item`, SQL with plain `?` placeholders, reads the item's id as that change left
 * it). Nothing is written unless an enabled endpoint wants the type and `when` holds: without
 * endpoints an event costs two statements that write nothing. `data` gets the item's `id` and
 * `desk_url` (`deskUrl` with `:id` replaced). The second statement returns the deliveries
 * (id, next_at) for the queue. `endpointId`: to that endpoint alone, enabled or not, whatever
 * it subscribed to (the desk's test event).
 */
export function eventStatements(
  db: D1Database,
  e: {
    id: string
    type: string
    at: string
    data: string
    item: number | string | Sql
    deskUrl: string
    when?: Sql
    endpointId?: number
  },
) {
  const item = typeof e.item === 'object' ? e.item : { sql: '?', args: [e.item] }
  const when = e.when ?? { sql: '1', args: [] }
  const target = e.endpointId === undefined ? WANTS : 'e.id = ?'
  const targetArg = e.endpointId ?? e.type
  const event = db
    .prepare(
      `INSERT INTO webhook_events (id, type, created_at, data)
       SELECT ?, ?, ?, json_set(?, '$.id', i.id, '$.desk_url', replace(?, ':id', i.id))
       FROM (SELECT ${item.sql} AS id) i
       WHERE i.id IS NOT NULL AND (${when.sql})
         AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE ${target})`,
    )
    .bind(e.id, e.type, e.at, e.data, e.deskUrl, ...item.args, ...when.args, targetArg)
  const deliveries = db
    .prepare(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, next_at, created_at)
       SELECT ?, e.id, ?, ? FROM webhook_endpoints e
       WHERE ${target} AND EXISTS (SELECT 1 FROM webhook_events WHERE id = ?)
       RETURNING id, next_at`,
    )
    .bind(e.id, e.at, e.at, targetArg, e.id)
  return [event, deliveries]
}

/**
 * Takes a pending delivery for an attempt: only if it is due, and (`at`) still due at the time
 * its queue message was sent for, so two messages for one attempt make one attempt. Its next_at
 * moves to `leaseUntil`: an attempt that dies with its Worker is due again then.
 */
export function claimDelivery(
  db: D1Database,
  id: number,
  at: string | null,
  now: string,
  leaseUntil: string,
) {
  return db
    .prepare(
      `UPDATE webhook_deliveries SET next_at = ?4
       WHERE id = ?1 AND status = 'pending' AND next_at <= ?3 AND (?2 IS NULL OR next_at = ?2)
       RETURNING id`,
    )
    .bind(id, at, now, leaseUntil)
    .first<{ id: number }>()
}

export const findDelivery = (db: D1Database, id: number) =>
  db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?').bind(id).first<DeliveryRow>()

export async function loadAttempt(db: D1Database, id: number): Promise<AttemptRow | null> {
  const row = await db
    .prepare(
      `SELECT d.*, v.type, v.created_at AS event_created_at, v.data,
         json_object('id', e.id, 'url', e.url, 'events', e.events, 'format', e.format,
           'personal', e.personal, 'enabled', e.enabled, 'secret', e.secret,
           'previous_secret', e.previous_secret, 'previous_until', e.previous_until,
           'disabled_at', e.disabled_at, 'disabled_reason', e.disabled_reason,
           'failing_since', e.failing_since) AS endpoint
       FROM webhook_deliveries d
       JOIN webhook_events v ON v.id = d.event_id
       JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.id = ?`,
    )
    .bind(id)
    .first<Omit<AttemptRow, 'endpoint'> & { endpoint: string }>()
  return row ? { ...row, endpoint: JSON.parse(row.endpoint) as EndpointRow } : null
}

export interface AttemptRecord {
  at: string
  status: number | null
  durationMs: number
  response: string | null
  error: string | null
}

export const recordAttempt = (
  db: D1Database,
  deliveryId: number,
  endpointId: number,
  a: AttemptRecord,
) =>
  db
    .prepare(
      `INSERT INTO webhook_attempts (delivery_id, endpoint_id, at, status, duration_ms, response, error)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(deliveryId, endpointId, a.at, a.status, a.durationMs, a.response, a.error)

/** A 2xx: the delivery is done, and its endpoint no longer failing. */
export const deliveryDone = (db: D1Database, id: number, endpointId: number, at: string) => [
  db
    .prepare(
      `UPDATE webhook_deliveries SET status = 'done', attempts = attempts + 1, next_at = NULL,
       done_at = ? WHERE id = ?`,
    )
    .bind(at, id),
  db.prepare('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ?').bind(endpointId),
]

/**
 * A failed attempt: the delivery waits for `nextAt`, or (null) has failed; its endpoint is
 * failing since its first failure of this run. Returns the endpoint's failing_since.
 */
export const deliveryFailed = (
  db: D1Database,
  id: number,
  endpointId: number,
  at: string,
  nextAt: string | null,
) => [
  db
    .prepare(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, next_at = ?2,
       status = CASE WHEN ?2 IS NULL THEN 'failed' ELSE 'pending' END WHERE id = ?1`,
    )
    .bind(id, nextAt),
  // a run of failures is unbroken only while attempts keep coming (the schedule's longest wait
  // is a day): after a quiet spell with no attempt at all, a failure starts a new run, so an
  // outage long past never turns off an endpoint at its first failure since
  db
    .prepare(
      `UPDATE webhook_endpoints SET failing_since = CASE
         WHEN failing_since IS NULL THEN ?1
         WHEN coalesce((SELECT max(at) FROM webhook_attempts
                        WHERE endpoint_id = ?2 AND at < ?1), '') < ?3 THEN ?1
         ELSE failing_since END
       WHERE id = ?2 RETURNING failing_since`,
    )
    .bind(at, endpointId, new Date(Date.parse(at) - QUIET_SPELL_MS).toISOString()),
]

/**
 * No attempt for longer than this: a new run. The schedule's longest wait is a day, 27.6 hours
 * with its jitter (a Retry-After is held to a day too): 30 hours is longer than any wait.
 */
const QUIET_SPELL_MS = 30 * 3600_000

/**
 * A delivery whose attempt itself fails, the same way each time (its event unreadable, say):
 * the error is in its log, and it is given up rather than tried again forever.
 */
export const deliveryBroken = (db: D1Database, id: number, at: string, error: string) =>
  db.batch([
    db
      .prepare(
        `INSERT INTO webhook_attempts (delivery_id, endpoint_id, at, status, duration_ms, response, error)
         SELECT id, endpoint_id, ?2, NULL, 0, NULL, ?3 FROM webhook_deliveries
         WHERE id = ?1 AND status = 'pending'`,
      )
      .bind(id, at, error.slice(0, 500)),
    db
      .prepare(
        `UPDATE webhook_deliveries SET status = 'failed', next_at = NULL
         WHERE id = ? AND status = 'pending'`,
      )
      .bind(id),
  ])

/** A delivery given up without an attempt (its endpoint is off). */
export const deliveryDropped = (db: D1Database, id: number) =>
  db
    .prepare(
      `UPDATE webhook_deliveries SET status = 'failed', next_at = NULL
       WHERE id = ? AND status = 'pending'`,
    )
    .bind(id)

/**
 * Turns an endpoint off ('gone': it answered 410; 'failing': five days of failures), and
 * every delivery still waiting for it has failed. The first statement returns the endpoint
 * only if this call turned it off.
 */
export const disableEndpoint = (
  db: D1Database,
  id: number,
  reason: 'gone' | 'failing',
  at: string,
) => [
  db
    .prepare(
      `UPDATE webhook_endpoints SET enabled = 0, disabled_at = ?, disabled_reason = ?
       WHERE id = ? AND enabled = 1 RETURNING id, url, description`,
    )
    .bind(at, reason, id),
  db
    .prepare(
      `UPDATE webhook_deliveries SET status = 'failed', next_at = NULL
       WHERE endpoint_id = ? AND status = 'pending'`,
    )
    .bind(id),
]

/** Pending deliveries whose attempt was due before `before` and was not made (lost messages). */
export async function overdueDeliveries(db: D1Database, before: string, limit = 500) {
  const { results } = await db
    .prepare(
      `SELECT id, next_at FROM webhook_deliveries
       WHERE status = 'pending' AND next_at <= ? ORDER BY next_at LIMIT ?`,
    )
    .bind(before, limit)
    .all<{ id: number; next_at: string }>()
  return results
}

/**
 * A new round of attempts for one delivery (the desk's replay): due now, none made; only to an
 * endpoint that is on (one that is off would drop it at once: nothing would be sent).
 */
export const replayOne = (db: D1Database, id: number, now: string) =>
  db
    .prepare(
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_at = ?, done_at = NULL
       WHERE id = ? AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE enabled = 1)
       RETURNING id, next_at`,
    )
    .bind(now, id)
    .all<{ id: number; next_at: string }>()

/** A new round for every delivery that failed since `since` (by its creation), to endpoints on. */
export const replayFailed = (db: D1Database, since: string, now: string) =>
  db
    .prepare(
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_at = ?
       WHERE status = 'failed' AND created_at >= ?
         AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE enabled = 1)
       RETURNING id, next_at`,
    )
    .bind(now, since)
    .all<{ id: number; next_at: string }>()

/**
 * A rotation: a new secret signs from now; the one before still signs (both signatures sent)
 * until `until`. A second rotation inside that window keeps the secret the receiver had before
 * the first (with its own end), not the one shown in between: a double press, or a rotation
 * again for a secret not copied, never cuts off the receiver. Returns the endpoint, or null.
 */
export const rotateEndpointSecret = (
  db: D1Database,
  id: number,
  secret: string,
  until: string,
  now: string,
) =>
  db
    .prepare(
      `UPDATE webhook_endpoints SET
         previous_secret = CASE WHEN previous_until > ?4 THEN previous_secret ELSE secret END,
         previous_until = CASE WHEN previous_until > ?4 THEN previous_until ELSE ?1 END,
         secret = ?2
       WHERE id = ?3 RETURNING id`,
    )
    .bind(until, secret, id, now)
    .first<{ id: number }>()

/**
 * Who manages integrations, as far as this database knows: the desk's members whose role in
 * the built-in auth service's app_metadata may manage the team (Owner, Admin; "agency" is the
 * Admin of before roles). With a hosted GoTrue the accounts are not here: none.
 */
export async function integrationManagers(db: D1Database, roles: string[]) {
  const { results } = await db
    .prepare(
      `SELECT m.email FROM desk_members m JOIN auth_users u ON u.id = m.user_id
       WHERE json_extract(u.app_metadata, '$.role') IN (SELECT value FROM json_each(?))
       ORDER BY m.email`,
    )
    .bind(JSON.stringify(roles))
    .all<{ email: string }>()
  return results.map((r) => r.email)
}

/**
 * The daily clean-up: attempts older than `before`, finished deliveries created before it,
 * and the events no delivery needs any more (their data, personal fields included, goes).
 */
export function purgeWebhooks(db: D1Database, before: string) {
  return db.batch([
    db.prepare('DELETE FROM webhook_attempts WHERE at < ?').bind(before),
    db
      .prepare(
        `DELETE FROM webhook_deliveries WHERE status IN ('done', 'failed') AND created_at < ?`,
      )
      .bind(before),
    db
      .prepare(
        `DELETE FROM webhook_events WHERE created_at < ?
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`,
      )
      .bind(before),
  ])
}
