/**
 * The desk's side of webhooks (migrations/0037_webhooks.sql): the agency's endpoints (added,
 * changed, turned on and off, removed) and the delivery log, every attempt newest first. The
 * engine's own reads and writes (signing, the queue, a delivery's outcome) are db/webhooks.ts.
 */

export const FORMATS = ['standard', 'slack'] as const
export type Format = (typeof FORMATS)[number]

/** An endpoint as the desk lists it: never its whole secret, only its first characters. */
export interface EndpointRow {
  id: number
  url: string
  /** JSON array of event types */
  events: string
  format: Format
  personal: number
  enabled: number
  /** the secret's first characters (whsec_ and a few), to tell one from another */
  secret_start: string
  /** while the previous secret still signs, after a rotation */
  previous_until: string | null
  description: string
  created_at: string
  created_by: string
  disabled_at: string | null
  /** 'manual', 'gone' (answered 410), 'failing' (5 days of failures) */
  disabled_reason: string | null
  failing_since: string | null
  /** its latest attempt: when, the answer's status (null: none), the error */
  last_at: string | null
  last_status: number | null
  last_error: string | null
}

/** What the desk's forms set on an endpoint. */
export interface EndpointFields {
  url: string
  events: readonly string[]
  format: Format
  personal: boolean
  description: string
}

/** Characters of the secret the page shows after it was shown once (whsec_ and four). */
const SECRET_START = 10

const ENDPOINT_COLUMNS = `e.id, e.url, e.events, e.format, e.personal, e.enabled,
  substr(e.secret, 1, ${SECRET_START}) AS secret_start, e.previous_until, e.description,
  e.created_at, e.created_by, e.disabled_at, e.disabled_reason, e.failing_since,
  la.at AS last_at, la.status AS last_status, la.error AS last_error`

/** The endpoints, oldest first, each with its latest attempt (one index lookup each). */
const LAST_ATTEMPT = `LEFT JOIN webhook_attempts la ON la.id = (
  SELECT id FROM webhook_attempts INDEXED BY webhook_attempts_by_endpoint
  WHERE endpoint_id = e.id ORDER BY at DESC, id DESC LIMIT 1)`

export async function listEndpoints(db: D1Database) {
  const { results } = await db
    .prepare(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e ${LAST_ATTEMPT} ORDER BY e.id`)
    .all<EndpointRow>()
  return results
}

export const findEndpoint = (db: D1Database, id: number) =>
  db
    .prepare(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints e ${LAST_ATTEMPT} WHERE e.id = ?`)
    .bind(id)
    .first<EndpointRow>()

/** A new endpoint, on, with its secret; RETURNING its id. */
export const insertEndpoint = (
  db: D1Database,
  fields: EndpointFields,
  secret: string,
  createdBy: string,
) =>
  db
    .prepare(
      `INSERT INTO webhook_endpoints (url, events, format, personal, secret, description, created_by)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .bind(
      fields.url,
      JSON.stringify(fields.events),
      fields.format,
      fields.personal ? 1 : 0,
      secret,
      fields.description,
      createdBy,
    )

/** An endpoint's settings changed (its secret and state untouched); RETURNING its id. */
export const updateEndpoint = (db: D1Database, id: number, fields: EndpointFields) =>
  db
    .prepare(
      `UPDATE webhook_endpoints SET url = ?, events = ?, format = ?, personal = ?, description = ?
       WHERE id = ? RETURNING id`,
    )
    .bind(
      fields.url,
      JSON.stringify(fields.events),
      fields.format,
      fields.personal ? 1 : 0,
      fields.description,
      id,
    )

/**
 * On (whatever turned it off, and its run of failures, forgotten: it starts afresh) or off by
 * hand; only when that changes anything (RETURNING its id then).
 */
export const setEndpointEnabled = (db: D1Database, id: number, enabled: boolean) =>
  enabled
    ? db
        .prepare(
          `UPDATE webhook_endpoints SET enabled = 1, disabled_at = NULL, disabled_reason = NULL,
             failing_since = NULL
           WHERE id = ? AND enabled = 0 RETURNING id`,
        )
        .bind(id)
    : db
        .prepare(
          `UPDATE webhook_endpoints SET enabled = 0, disabled_reason = 'manual',
             disabled_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
           WHERE id = ? AND enabled = 1 RETURNING id`,
        )
        .bind(id)

/** Gone, with its deliveries and their attempts (ON DELETE CASCADE); RETURNING its id. */
export const deleteEndpoint = (db: D1Database, id: number) =>
  db.prepare('DELETE FROM webhook_endpoints WHERE id = ? RETURNING id').bind(id)

/** The log's filter: failures only (no 2xx answer), one endpoint's. */
export interface LogFilter {
  failures?: boolean
  endpoint?: number
}

/** Where a page of the log starts: just after (older than) this attempt. */
export interface LogCursor {
  at: string
  id: number
}

/** One attempt as the log shows it, with its delivery's event and endpoint. */
export interface AttemptRow {
  id: number
  delivery_id: number
  endpoint_id: number
  at: string
  status: number | null
  duration_ms: number
  /** the answer's start (clipped here: the page shows no more) */
  response: string | null
  error: string | null
  delivery_status: 'pending' | 'done' | 'failed'
  event_type: string
  /** null once the endpoint is removed (its attempts go with it, but a page read may race) */
  url: string | null
}

/** Characters of an answer the log keeps on its page. */
export const RESPONSE_START = 200

/**
 * The SQL of one page of the log: attempts newest first by (at, id), reading one index in its
 * order (by time; by endpoint and time) from the cursor, `limit + 1` rows at most. The failures
 * filter is checked along the index (failures are what the agency reads the log for; the log
 * holds 30 days).
 */
export function logQuery(
  filter: LogFilter,
  cursor: LogCursor | null,
  limit: number,
): [sql: string, args: (string | number)[]] {
  const where: string[] = []
  const args: (string | number)[] = []
  if (filter.endpoint !== undefined) {
    where.push('a.endpoint_id = ?')
    args.push(filter.endpoint)
  }
  if (filter.failures) where.push('(a.status IS NULL OR a.status NOT BETWEEN 200 AND 299)')
  // (at, id) < cursor, written so that the index's range is at <= ?
  if (cursor) {
    where.push('a.at <= ? AND (a.at < ? OR a.id < ?)')
    args.push(cursor.at, cursor.at, cursor.id)
  }
  const index =
    filter.endpoint !== undefined ? 'webhook_attempts_by_endpoint' : 'webhook_attempts_by_time'
  return [
    `SELECT a.id, a.delivery_id, a.endpoint_id, a.at, a.status, a.duration_ms,
       substr(a.response, 1, ${RESPONSE_START + 1}) AS response, a.error,
       d.status AS delivery_status, ev.type AS event_type, e.url
     FROM webhook_attempts a INDEXED BY ${index}
     JOIN webhook_deliveries d ON d.id = a.delivery_id
     JOIN webhook_events ev ON ev.id = d.event_id
     LEFT JOIN webhook_endpoints e ON e.id = a.endpoint_id
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY a.at DESC, a.id DESC LIMIT ${limit + 1}`,
    args,
  ]
}

/** One page of the log, newest first, and where the next starts (null on the last). */
export async function listAttempts(
  db: D1Database,
  filter: LogFilter,
  cursor: LogCursor | null,
  limit: number,
) {
  const [sql, args] = logQuery(filter, cursor, limit)
  const { results } = await db
    .prepare(sql)
    .bind(...args)
    .all<AttemptRow>()
  const rows = results.slice(0, limit)
  const last = rows.at(-1)
  return {
    rows,
    next: results.length > limit && last ? { at: last.at, id: last.id } : null,
  }
}

/** A delivery's endpoint and event, for the history's row of a replay. */
export const findDelivery = (db: D1Database, id: number) =>
  db
    .prepare(
      `SELECT d.id, d.endpoint_id, d.status, ev.type AS event_type
       FROM webhook_deliveries d JOIN webhook_events ev ON ev.id = d.event_id WHERE d.id = ?`,
    )
    .bind(id)
    .first<{ id: number; endpoint_id: number; status: string; event_type: string }>()
