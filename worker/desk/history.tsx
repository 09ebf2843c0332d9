import { fromZonedTime } from 'date-fns-tz'
import type { Context } from 'hono'
import { Hono } from 'hono'
import * as v from 'valibot'
import { audit, LEAD_KINDS } from '../db/desk'
import {
  existingTargets,
  listActors,
  listHistory,
  type AuditRow,
  type HistoryCursor,
  type HistoryFilter,
} from '../db/history'
import { CONTENT_KINDS } from '../db/content-kinds'
import type { AppEnv } from '../env'
import { csvLine } from './csv'
import { ACTION_GROUPS, GROUPS, type ActionGroup } from './history-actions'
import { DeskHistoryPage, type HistoryQuery } from './pages/history'
import { deskTitle, staffOf } from './staff'

/**
 * /desk/history (Owner and Admin: route-permissions.ts): every row of the audit log, newest
 * first, filtered by person, kind of action and dates, a page at a time; and the same filter as
 * CSV. The query is a plain GET form's: it works without JavaScript.
 */
export const deskHistory = new Hono<AppEnv>()

const PAGE_SIZE = 50
/** Rows a CSV export holds at most (read in pages of 500), as the leads' CSV. */
const CSV_MAX_ROWS = 20_000

/** A day typed in a date field (YYYY-MM-DD) that is a real day of the calendar. */
const Day = v.pipe(
  v.string(),
  v.isoDate(),
  // (a pipe runs on after a failed format check: this one must not throw on what isoDate refused)
  v.check((day) => {
    const time = Date.parse(`${day}T00:00:00Z`)
    return !Number.isNaN(time) && new Date(time).toISOString().startsWith(day)
  }),
)

const Query = v.pipe(
  v.object({
    // an actor's id (the auth service's user id), or the site's own rows
    who: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/))),
    // a group of actions, or one action by its name (one the log may hold that the page has no
    // name for too)
    action: v.optional(
      v.union([v.picklist(GROUPS), v.pipe(v.string(), v.regex(/^[a-z_]{1,30}(\.[a-z_]{1,30})+$/))]),
    ),
    from: v.optional(Day),
    to: v.optional(Day),
  }),
  v.forward(
    v.check((q) => !q.from || !q.to || q.from <= q.to, 'range'),
    ['to'],
  ),
)

/** What each field's problem is called in locales (desk_history.errors). */
const ERRORS = { who: 'person', action: 'action', from: 'date', to: 'date' } as const
export type HistoryError = (typeof ERRORS)[keyof typeof ERRORS] | 'range'

/** The query string read: the filter for D1, the form's values, or what is wrong with them. */
function readQuery(c: Context<AppEnv>) {
  // an empty field of the form is no filter
  const raw = Object.fromEntries(
    Object.entries(c.req.query()).filter(([name, value]) => value !== '' && name in ERRORS),
  )
  const parsed = v.safeParse(Query, raw)
  if (!parsed.success) {
    const errors = new Set<HistoryError>()
    for (const issue of parsed.issues) {
      const key = v.getDotPath(issue) as keyof typeof ERRORS | null
      errors.add(issue.message === 'range' ? 'range' : key ? ERRORS[key] : 'date')
    }
    return { query: raw as HistoryQuery, errors: [...errors] }
  }
  const query: HistoryQuery = parsed.output
  const zone = c.var.config.timeZone
  const filter: HistoryFilter = {
    actor: query.who === 'site' ? '' : query.who,
    actions: !query.action
      ? undefined
      : query.action in ACTION_GROUPS
        ? ACTION_GROUPS[query.action as ActionGroup]
        : [query.action],
    // days of the agency's zone, the zone the page shows times in
    since: query.from && fromZonedTime(`${query.from}T00:00:00`, zone).toISOString(),
    until: query.to && fromZonedTime(`${nextDay(query.to)}T00:00:00`, zone).toISOString(),
  }
  return { query, filter, errors: [] as HistoryError[] }
}

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

const Cursor = v.tuple([
  v.pipe(v.string(), v.isoTimestamp()),
  v.pipe(v.string(), v.regex(/^\d{1,15}$/), v.transform(Number)),
])
const writeCursor = (c: HistoryCursor) => `${c.at}~${c.id}`
function readCursor(raw: string | undefined): HistoryCursor | null {
  const parsed = v.safeParse(Cursor, raw?.split('~'))
  return parsed.success ? { at: parsed.output[0], id: parsed.output[1] } : null
}

/** Where a row's target is in the desk, if it still exists there. */
function hrefOf(target: string | null, found: Map<string, number | string>) {
  if (!target) return undefined
  if (target === 'mail/held') return '/desk/mail?status=held'
  // (an experiment is never deleted: archived, it keeps its page)
  const experiment = /^experiment\/(\d+)$/.exec(target)
  if (experiment) return `/desk/experiments/${experiment[1]}`
  const id = found.get(target)
  if (id === undefined) return undefined
  const [kind] = target.split('/')
  if ((LEAD_KINDS as string[]).includes(kind)) return `/desk/leads/${target}`
  if ((CONTENT_KINDS as readonly string[]).includes(kind)) return `/desk/content/${kind}/${id}`
  return {
    booking: '/desk/bookings',
    newsletter: `/desk/newsletters/${id}`,
    mail: '/desk/mail',
    member: '/desk/team',
    invite: '/desk/team',
  }[kind]
}

export interface HistoryLine extends AuditRow {
  href?: string
}

deskHistory.get('/history', async (c) => {
  const { query, filter, errors } = readQuery(c)
  const db = c.env.DB
  const t = c.var.t
  const head = {
    title: deskTitle(c, t('desk_history.title')),
    description: t('desk.description'),
    workspace: true,
  }
  const actors = await listActors(db)
  if (!filter) {
    c.status(400)
    return c.render(
      <DeskHistoryPage query={query} errors={errors} actors={actors} lines={[]} next={null} />,
      head,
    )
  }
  const { rows, next } = await listHistory(db, filter, readCursor(c.req.query('after')), PAGE_SIZE)
  const found = await existingTargets(
    db,
    rows.flatMap((r) => (r.target ? [r.target] : [])),
  )
  return c.render(
    <DeskHistoryPage
      query={query}
      errors={[]}
      actors={actors}
      lines={rows.map((r) => ({ ...r, href: hrefOf(r.target, found) }))}
      next={next && writeCursor(next)}
    />,
    head,
  )
})

deskHistory.get('/history.csv', async (c) => {
  const { query, filter, errors } = readQuery(c)
  const t = c.var.t
  if (!filter)
    return c.json({ error: errors.map((e) => t(`desk_history.errors.${e}`)).join(' ') }, 400)
  const db = c.env.DB
  let body = csvLine(['id', 'created_at', 'actor_email', 'action', 'target', 'detail'])
  let cursor: HistoryCursor | null = null
  let rows = 0
  do {
    const page = await listHistory(db, filter, cursor, 500)
    for (const r of page.rows)
      body += csvLine([r.id, r.created_at, r.actor_email, r.action, r.target, r.detail])
    rows += page.rows.length
    cursor = page.next
  } while (cursor && rows < CSV_MAX_ROWS)
  await audit(db, staffOf(c), 'history.export', null, { filter: query, rows }).run()
  c.header(
    'Content-Disposition',
    `attachment; filename="history-${new Date().toISOString().slice(0, 10)}.csv"`,
  )
  return c.body(body, 200, { 'Content-Type': 'text/csv; charset=utf-8' })
})
