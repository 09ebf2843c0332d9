/**
 * The desk's reads and writes (migrations/0011_create_desk.sql): the leads inbox, one person's
 * history, the marks staff put on leads, and the audit log every staff action writes.
 */

export type LeadKind = 'subscriber' | 'guide' | 'contact'
export const LEAD_KINDS: LeadKind[] = ['subscriber', 'guide', 'contact']

export interface LeadRow {
  kind: LeadKind
  id: number
  created_at: string
  email: string
  name: string | null
  language: string
  /** subscriber: consent status; others: null */
  status: string | null
  /** subscriber: the form; guide: the guide; contact: the message's start */
  detail: string
  service: string | null
  handled_at: string | null
  note: string | null
  /** Posted without the challenge (no JavaScript): stored, and nothing e-mailed to it. */
  unchecked: number
}

export interface LeadFilter {
  kind?: LeadKind
  /** pending / confirmed / unsubscribed (subscribers), or handled / open (any lead) */
  status?: string
  language?: string
  service?: string
  /** days, YYYY-MM-DD, inclusive */
  from?: string
  to?: string
  /** part of a name or an address */
  q?: string
}

/** Where a page of the inbox starts: just after this lead, newest first. */
export interface Cursor {
  at: string
  kind: LeadKind
  id: number
}

/** Each kind's table; its search index (migrations/0012) is the same name with `_search`. */
const TABLES: Record<LeadKind, string> = {
  subscriber: 'subscribers',
  guide: 'guide_requests',
  contact: 'contact_messages',
}

const SOURCES: Record<LeadKind, string> = {
  subscriber: `SELECT 'subscriber' AS kind, l.id, l.created_at, l.email, l.name, l.language,
      l.status, l.signup_form AS detail, NULL AS service, m.handled_at, m.note, l.unchecked
      FROM subscribers l`,
  guide: `SELECT 'guide' AS kind, l.id, l.created_at, l.email, l.name, l.language,
      NULL AS status, l.guide AS detail, NULL AS service, m.handled_at, m.note, l.unchecked
      FROM guide_requests l`,
  contact: `SELECT 'contact' AS kind, l.id, l.created_at, l.email, l.name, l.language,
      NULL AS status, substr(l.message, 1, 160) AS detail, l.service, m.handled_at, m.note,
      0 AS unchecked FROM contact_messages l`,
}

/** Newest first, across kinds: time, then kind, then id (the cursor's order). */
const newerFirst = (a: Pick<LeadRow, 'created_at' | 'kind' | 'id'>, b: typeof a) =>
  a.created_at !== b.created_at
    ? a.created_at < b.created_at
      ? 1
      : -1
    : a.kind !== b.kind
      ? a.kind < b.kind
        ? 1
        : -1
      : b.id - a.id

/**
 * One page of leads matching the filter, newest first, after the cursor. Each kind is read
 * from its own table in its (created_at, id) index order and at most `limit + 1` rows, then the
 * three are merged: a page costs the same at 100 rows or 100,000.
 */
export async function listLeads(
  db: D1Database,
  filter: LeadFilter,
  cursor: Cursor | null,
  limit: number,
) {
  const kinds = LEAD_KINDS.filter(
    (k) =>
      (!filter.kind || filter.kind === k) &&
      (!filter.service || k === 'contact') &&
      (!['pending', 'confirmed', 'unsubscribed'].includes(filter.status ?? '') ||
        k === 'subscriber'),
  )
  const statements = kinds.map((kind) => {
    const where: string[] = []
    const args: (string | number)[] = []
    const and = (clause: string, ...values: (string | number)[]) => {
      where.push(clause)
      args.push(...values)
    }
    if (cursor) {
      // kinds sort after their time, so another kind's rows of the cursor's instant may be due
      if (kind > cursor.kind) and('l.created_at < ?', cursor.at)
      else if (kind < cursor.kind) and('l.created_at <= ?', cursor.at)
      else
        and(
          '(l.created_at < ? OR (l.created_at = ? AND l.id < ?))',
          cursor.at,
          cursor.at,
          cursor.id,
        )
    }
    if (filter.language) and('l.language = ?', filter.language)
    if (filter.service) and('l.service = ?', filter.service)
    if (filter.from) and('l.created_at >= ?', filter.from)
    if (filter.to) and('l.created_at < ?', nextDay(filter.to))
    if (filter.q) and(...search(TABLES[kind], filter.q))
    if (filter.status === 'handled') and('m.handled_at IS NOT NULL')
    else if (filter.status === 'open') and('m.handled_at IS NULL')
    else if (filter.status) and('l.status = ?', filter.status)
    const sql = `${SOURCES[kind]}
        LEFT JOIN lead_marks m ON m.kind = '${kind}' AND m.lead_id = l.id
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY l.created_at DESC, l.id DESC LIMIT ${limit + 1}`
    return db.prepare(sql).bind(...args)
  })
  const results = statements.length ? await db.batch<LeadRow>(statements) : []
  const rows = results.flatMap((r) => r.results).sort(newerFirst)
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    leads: page,
    next:
      rows.length > limit && last ? { at: last.created_at, kind: last.kind, id: last.id } : null,
  }
}

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 3600_000).toISOString()

/**
 * "Name or address contains the text", in any case. From three characters on, the kind's
 * trigram index (migrations/0012) finds the matching rows without reading the others, whatever
 * their number; the text is one quoted phrase, so nothing in it is FTS5 syntax. A trigram index
 * cannot look for one or two characters: those read the table in time order with LIKE, which
 * stops at the page's end, soon for text that short (most names and addresses hold it).
 */
function search(table: string, text: string): [string, ...string[]] {
  if ([...text].length >= 3)
    return [
      `l.id IN (SELECT rowid FROM ${table}_search WHERE ${table}_search MATCH ?)`,
      `"${text.replaceAll('"', '""')}"`,
    ]
  // the user's own % and _ taken literally
  const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  return ["(l.email LIKE ? ESCAPE '\\' OR l.name LIKE ? ESCAPE '\\')", like, like]
}

/** One lead by kind and id, with its mark. */
export function findLead(db: D1Database, kind: LeadKind, id: number) {
  return db
    .prepare(
      `${SOURCES[kind]}
        LEFT JOIN lead_marks m ON m.kind = '${kind}' AND m.lead_id = l.id WHERE l.id = ?`,
    )
    .bind(id)
    .first<LeadRow>()
}

/** Handled or not, and the private note, of one lead. */
export function markLead(
  db: D1Database,
  kind: LeadKind,
  id: number,
  mark: { handled: boolean; note: string | null; by: string },
) {
  return db
    .prepare(
      `INSERT INTO lead_marks (kind, lead_id, handled_at, handled_by, note, updated_at)
       VALUES (?1, ?2, CASE WHEN ?3 THEN ?5 END, CASE WHEN ?3 THEN ?4 END, ?6, ?5)
       ON CONFLICT (kind, lead_id) DO UPDATE SET
         handled_at = CASE WHEN ?3 THEN coalesce(lead_marks.handled_at, ?5) END,
         handled_by = CASE WHEN ?3 THEN coalesce(lead_marks.handled_by, ?4) END,
         note = ?6, updated_at = ?5`,
    )
    .bind(kind, id, mark.handled ? 1 : 0, mark.by, new Date().toISOString(), mark.note)
}

/**
 * A staff action, for the same batch as the change it records. `onlyIfChanged`: only when the
 * statement before it in the batch changed a row (the change happened), as insertMail does.
 */
export function audit(
  db: D1Database,
  actor: { id: string; email: string },
  action: string,
  target: string | null,
  detail: Record<string, unknown> = {},
  onlyIfChanged = false,
) {
  return db
    .prepare(
      `INSERT INTO desk_audit (actor_id, actor_email, action, target, detail)
       SELECT ?, ?, ?, ?, ? ${onlyIfChanged ? 'WHERE changes() > 0' : ''}`,
    )
    .bind(actor.id, actor.email, action, target, JSON.stringify(detail))
}
