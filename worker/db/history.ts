import { CONTENT_KINDS } from './content-kinds'
import { LEAD_KINDS } from './desk'

/**
 * The desk's history: desk_audit (migrations/0011, written by audit() in db/desk.ts) read
 * newest first, a page at a time, by the indexes of migrations/0035; and which of a page's
 * targets still exist.
 */

export interface AuditRow {
  id: number
  actor_id: string
  actor_email: string
  action: string
  target: string | null
  /** JSON */
  detail: string
  created_at: string
}

export interface HistoryFilter {
  /** One actor's rows: their id, or '' for the site's own (a cron, an expiry). */
  actor?: string
  /** Only these actions (one, or a group's); undefined: every action. */
  actions?: readonly string[]
  /** Instants (ISO), from inclusive, to exclusive. */
  since?: string
  until?: string
}

/** Where a page starts: just after (older than) this row. */
export interface HistoryCursor {
  at: string
  id: number
}

const COLUMNS = 'id, actor_id, actor_email, action, target, detail, created_at'

/** The index each filter reads in order (migrations/0011 and 0035): named, not left to chance. */
const indexFor = (actor: boolean, action: boolean) =>
  actor && action
    ? 'desk_audit_by_actor_action'
    : actor
      ? 'desk_audit_by_actor'
      : action
        ? 'desk_audit_by_action'
        : 'desk_audit_by_time'

/**
 * The statements of one page, as SQL and its arguments: one per action of the filter (one for
 * all when it names none), each reading one index in order from the cursor and stopping after
 * `limit + 1` rows.
 */
export function historyQueries(
  filter: HistoryFilter,
  cursor: HistoryCursor | null,
  limit: number,
): [sql: string, args: (string | number)[]][] {
  return (filter.actions ?? [null]).map((action) => {
    const where: string[] = []
    const args: (string | number)[] = []
    const and = (clause: string, ...values: (string | number)[]) => {
      where.push(clause)
      args.push(...values)
    }
    if (filter.actor !== undefined) and('actor_id = ?', filter.actor)
    if (action !== null) and('action = ?', action)
    if (filter.since) and('created_at >= ?', filter.since)
    if (filter.until) and('created_at < ?', filter.until)
    // (created_at, id) < cursor, written so that the index's range is created_at <= ?
    if (cursor)
      and('created_at <= ? AND (created_at < ? OR id < ?)', cursor.at, cursor.at, cursor.id)
    const index = indexFor(filter.actor !== undefined, action !== null)
    return [
      `SELECT ${COLUMNS} FROM desk_audit INDEXED BY ${index}
       ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`,
      args,
    ]
  })
}

/**
 * One page of the log matching the filter, newest first, after the cursor. Each statement reads
 * one index in order (by time; by actor; by action; by actor and action) and stops after
 * `limit + 1` rows, so a page costs the same at ten rows or a million. Several actions (a
 * group) are one statement each, merged, as the leads inbox merges its tables.
 */
export async function listHistory(
  db: D1Database,
  filter: HistoryFilter,
  cursor: HistoryCursor | null,
  limit: number,
) {
  const statements = historyQueries(filter, cursor, limit).map(([sql, args]) =>
    db.prepare(sql).bind(...args),
  )
  const results = await db.batch<AuditRow>(statements)
  const rows = results
    .flatMap((r) => r.results)
    .sort((a, b) =>
      a.created_at !== b.created_at ? (a.created_at < b.created_at ? 1 : -1) : b.id - a.id,
    )
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    rows: page,
    next: rows.length > limit && last ? { at: last.created_at, id: last.id } : null,
  }
}

/**
 * Everyone who appears in the log, with the address of their latest row: distinct actor ids
 * found by skipping through the actor index (one lookup per person, not a read of every row),
 * each one's latest address by the same index.
 */
export async function listActors(db: D1Database) {
  const { results } = await db
    .prepare(
      `WITH RECURSIVE actors(id) AS (
         SELECT min(actor_id) FROM desk_audit
         UNION ALL
         SELECT (SELECT min(actor_id) FROM desk_audit WHERE actor_id > actors.id)
         FROM actors WHERE actors.id IS NOT NULL
       )
       SELECT id, (SELECT actor_email FROM desk_audit WHERE actor_id = actors.id
                   ORDER BY created_at DESC, id DESC LIMIT 1) AS email
       FROM actors WHERE id IS NOT NULL`,
    )
    .all<{ id: string; email: string }>()
  return results
}

const ids = (targets: string[], kind: string) =>
  JSON.stringify(
    targets
      .filter((t) => t.startsWith(`${kind}/`))
      .map((t) => t.slice(kind.length + 1))
      .filter((id) => /^\d{1,15}$/.test(id))
      .map(Number),
  )

/**
 * Which of these targets ("contact/5", "booking/12", "article/my-slug", "member/<id>"…) still
 * exist: a map from each that does to its row's id (a content item's, for its editor's
 * address). One batch of indexed lookups for a page's targets, whatever the log's size; a
 * booking counts while it is still to come (the desk lists only those).
 */
export async function existingTargets(db: D1Database, targets: string[]) {
  const found = new Map<string, number | string>()
  const unique = [...new Set(targets)]
  if (!unique.length) return found
  const numbered: [kind: string, sql: string][] = [
    ...LEAD_KINDS.map(
      (kind) =>
        [
          kind,
          `SELECT id FROM ${{ subscriber: 'subscribers', guide: 'guide_requests', contact: 'contact_messages' }[kind]} WHERE id IN (SELECT value FROM json_each(?))`,
        ] as [string, string],
    ),
    [
      'booking',
      `SELECT id FROM bookings WHERE id IN (SELECT value FROM json_each(?)) AND slot_start >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    ],
    ['newsletter', 'SELECT id FROM newsletter_issues WHERE id IN (SELECT value FROM json_each(?))'],
    ['mail', 'SELECT id FROM mail_outbox WHERE id IN (SELECT value FROM json_each(?))'],
  ]
  const content = unique
    .map((t) => t.split('/'))
    .filter(
      ([kind, slug, more]) => (CONTENT_KINDS as readonly string[]).includes(kind) && slug && !more,
    )
  const results = await db.batch<{ id: number; kind?: string; slug?: string }>([
    ...numbered.map(([kind, sql]) => db.prepare(sql).bind(ids(unique, kind))),
    db
      .prepare(
        `SELECT c.id, c.kind, c.slug FROM json_each(?) j
         JOIN content_items c ON c.kind = json_extract(j.value, '$[0]')
           AND c.slug = json_extract(j.value, '$[1]')`,
      )
      .bind(JSON.stringify(content)),
  ])
  numbered.forEach(([kind], i) => {
    for (const row of results[i].results) found.set(`${kind}/${row.id}`, row.id)
  })
  for (const row of results.at(-1)!.results) found.set(`${row.kind}/${row.slug}`, row.id)
  // the team's rows (migrations/0034), on their own: a page without them asks nothing
  const members = unique.filter((t) => t.startsWith('member/')).map((t) => t.slice(7))
  const invites = JSON.parse(ids(unique, 'invite')) as number[]
  if (members.length || invites.length) {
    const [m, i] = await db.batch<{ id: string | number }>([
      db
        .prepare(
          'SELECT user_id AS id FROM desk_members WHERE user_id IN (SELECT value FROM json_each(?))',
        )
        .bind(JSON.stringify(members)),
      db
        .prepare('SELECT id FROM desk_invitations WHERE id IN (SELECT value FROM json_each(?))')
        .bind(JSON.stringify(invites)),
    ])
    for (const row of m.results) found.set(`member/${row.id}`, row.id)
    for (const row of i.results) found.set(`invite/${row.id}`, row.id)
  }
  return found
}
