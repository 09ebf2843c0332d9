import { Hono } from 'hono'
import * as v from 'valibot'
import { formFields } from '../api/forms'
import { audit, findLead, LEAD_KINDS, listLeads, markLead, type LeadKind } from '../db/desk'
import { personalRows } from '../db/personal-data'
import type { AppEnv } from '../env'
import { limitBody, sameSiteOnly } from '../middleware/form-guard'
import { DeskInboxPage, DeskLeadPage } from './pages/leads'
import { deskBookings } from './bookings'
import { deskContent } from './content'
import { deskHistory } from './history'
import { deskIntegrations } from './integrations'
import { deskExperiments } from './experiments'
import { csvLine } from './csv'
import { readCursor, readFilter, writeCursor } from './filter'
import { staffOnly } from './guard'
import { can } from '../roles'
import { sectionsFor } from './sections'
import { staffOf } from './staff'
import { countHeldMail, deskMail } from './mail'
import { deskNewsletters } from './newsletters'
import { deskSpeed } from './speed'
import { deskTeam } from './team'
import { deskVisits } from './visits'

/**
 * /desk, the agency's workspace: everything here is for staff with a second factor (guard.ts),
 * and every change writes the audit log in the same batch.
 */
export const desk = new Hono<AppEnv>()

desk.use('*', staffOnly())
// Every desk page says so while form e-mails wait for the agency (docs/bots.md): a surge of
// mail to unconfirmed addresses is what a bot flooding strangers' inboxes looks like.
desk.use('*', async (c, next) => {
  // (counted only for those who can release or drop it: the others' pages do not say it)
  if (c.req.method === 'GET' && can(c.var.deskRole, 'mail.outbox'))
    c.set('heldMail', await countHeldMail(c.env.DB).catch(() => 0))
  await next()
})
desk.route('/bookings', deskBookings)
desk.route('/mail', deskMail)
desk.route('/visits', deskVisits)
desk.route('/speed', deskSpeed)
desk.route('/content', deskContent)
desk.route('/newsletters', deskNewsletters)
// /desk/history and /desk/history.csv
desk.route('/', deskHistory)
desk.route('/team', deskTeam)
desk.route('/integrations', deskIntegrations)
desk.route('/experiments', deskExperiments)

const PAGE_SIZE = 50
/** Rows a CSV export holds at most (in pages of 500, each an index range per table). */
const CSV_MAX_ROWS = 20_000

desk.get('/', async (c) => {
  // the desk's door for every role: the leads inbox for those who read leads, else the first
  // section of the bar the role opens (an Editor's: Visits)
  if (!can(c.var.deskRole, 'leads.read')) {
    const first = sectionsFor(c.var.deskRole)[0]
    return first ? c.redirect(first.href, 302) : c.notFound()
  }
  const filter = readFilter(c.req.query())
  const { leads, next } = await listLeads(
    c.env.DB,
    filter,
    readCursor(c.req.query('after')),
    PAGE_SIZE,
  )
  const t = c.var.t
  return c.render(
    <DeskInboxPage filter={filter} leads={leads} next={next && writeCursor(next)} />,
    {
      title: `${t('desk.leads')} | ${t('meta.title_suffix')}`,
      description: t('desk.description'),
      workspace: true,
    },
  )
})

desk.get('/leads.csv', async (c) => {
  const filter = readFilter(c.req.query())
  const db = c.env.DB
  let body = csvLine([
    'created_at',
    'kind',
    'id',
    'name',
    'email',
    'language',
    'status',
    'detail',
    'service',
    'handled_at',
    'note',
  ])
  let cursor = null
  let rows = 0
  do {
    const page = await listLeads(db, filter, cursor, 500)
    for (const l of page.leads)
      body += csvLine([
        l.created_at,
        l.kind,
        l.id,
        l.name,
        l.email,
        l.language,
        l.status,
        l.detail,
        l.service,
        l.handled_at,
        l.note,
      ])
    rows += page.leads.length
    cursor = page.next
  } while (cursor && rows < CSV_MAX_ROWS)
  await audit(db, staffOf(c), 'leads.export', null, { filter, rows }).run()
  c.header(
    'Content-Disposition',
    `attachment; filename="leads-${new Date().toISOString().slice(0, 10)}.csv"`,
  )
  return c.body(body, 200, { 'Content-Type': 'text/csv; charset=utf-8' })
})

const Params = v.object({
  kind: v.picklist(LEAD_KINDS),
  id: v.pipe(v.string(), v.regex(/^\d{1,12}$/), v.transform(Number)),
})

desk.get('/leads/:kind/:id', async (c) => {
  const params = v.safeParse(Params, c.req.param())
  if (!params.success) return c.notFound()
  const lead = await findLead(c.env.DB, params.output.kind, params.output.id)
  if (!lead) return c.notFound()
  const t = c.var.t
  return c.render(
    <DeskLeadPage
      lead={{ ...lead, kind: params.output.kind as LeadKind }}
      history={await personalRows(c.env.DB, lead.email)}
      saved={c.req.query('saved') === '1'}
    />,
    {
      title: `${lead.name || lead.email} | ${t('meta.title_suffix')}`,
      workspace: true,
      description: t('desk.description'),
    },
  )
})

const Mark = v.object({
  handled: v.optional(v.literal('1')),
  note: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(2000)), ''),
})

desk.post('/leads/:kind/:id', sameSiteOnly(), limitBody(8192), async (c) => {
  const params = v.safeParse(Params, c.req.param())
  const mark = v.safeParse(Mark, await formFields(c))
  if (!params.success || !mark.success) return c.json({ error: c.var.t('errors.invalid') }, 400)
  const { kind, id } = params.output
  const db = c.env.DB
  if (!(await findLead(db, kind, id))) return c.json({ error: c.var.t('errors.invalid') }, 404)
  const handled = mark.output.handled === '1'
  const note = mark.output.note || null
  await db.batch([
    markLead(db, kind, id, { handled, note, by: staffOf(c).email }),
    audit(db, staffOf(c), 'lead.mark', `${kind}/${id}`, { handled, note: note !== null }),
  ])
  return c.redirect(`/desk/leads/${kind}/${id}?saved=1`, 303)
})
