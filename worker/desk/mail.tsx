import { Hono } from 'hono'
import * as v from 'valibot'
import { audit } from '../db/desk'
import type { OutboxRow } from '../db/outbox'
import type { AppEnv } from '../env'
import { sendJobs } from '../mail/enqueue'
import { isMailKind, TEMPLATES } from '../mail/templates'
import { limitBody, sameSiteOnly } from '../middleware/form-guard'
import { DeskMailPage, MAIL_DONE } from './pages/mail'

/** /desk/mail: the outbox as the agency needs it, and a second chance for what failed. */
export const deskMail = new Hono<AppEnv>()

const PAGE_SIZE = 50
const DONE = MAIL_DONE
const STATUSES = ['queued', 'sending', 'sent', 'failed', 'suppressed', 'held'] as const

/** Form e-mails held back after a surge of mail to unconfirmed addresses (db/outbox.ts). */
export async function countHeldMail(db: D1Database) {
  const row = await db
    .prepare("SELECT count(*) AS n FROM mail_outbox WHERE status = 'held'")
    .first<{ n: number }>()
  return row?.n ?? 0
}

/**
 * A failed e-mail can be sent again when its template still has what it needs: not a one-time
 * link or code (the outbox forgot those, and they have expired), not a row from before delivery.
 */
export const resendable = (row: Pick<OutboxRow, 'kind' | 'status'>) =>
  row.status === 'failed' && isMailKind(row.kind) && !TEMPLATES[row.kind].secret

const Query = v.object({
  status: v.optional(v.picklist(STATUSES)),
  after: v.optional(v.pipe(v.string(), v.regex(/^\d{1,12}$/), v.transform(Number))),
})

deskMail.get('/', async (c) => {
  const parsed = v.safeParse(Query, c.req.query())
  const { status, after } = parsed.success ? parsed.output : {}
  const where: string[] = []
  const args: (string | number)[] = []
  if (status) {
    where.push('status = ?')
    args.push(status)
  }
  if (after) {
    where.push('id < ?')
    args.push(after)
  }
  const { results } = await c.env.DB.prepare(
    `SELECT id, created_at, sent_at, kind, category, language, to_address, subject, status,
            attempts, last_error
     FROM mail_outbox ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY id DESC LIMIT ${PAGE_SIZE + 1}`,
  )
    .bind(...args)
    .all<OutboxRow>()
  const mails = results.slice(0, PAGE_SIZE)
  const t = c.var.t
  return c.render(
    <DeskMailPage
      status={status}
      mails={mails.map((m) => ({ ...m, resendable: resendable(m) }))}
      next={results.length > PAGE_SIZE ? mails.at(-1)!.id : null}
      done={DONE.find((d) => d === c.req.query('done'))}
    />,
    {
      title: `${t('desk.nav.mail')} | ${t('meta.title_suffix')}`,
      workspace: true,
      description: t('desk.description'),
    },
  )
})

/** Back on the queue from the start: a fresh round of attempts, the last error kept until then. */
deskMail.post('/:id{[0-9]+}/resend', sameSiteOnly(), limitBody(1024), async (c) => {
  const id = Number(c.req.param('id'))
  const db = c.env.DB
  const row = await db
    .prepare('SELECT kind, status, to_address FROM mail_outbox WHERE id = ?')
    .bind(id)
    .first<Pick<OutboxRow, 'kind' | 'status' | 'to_address'>>()
  if (!row || !resendable(row)) return c.json({ error: c.var.t('desk.not_resendable') }, 409)
  const account = c.var.account!
  const [requeued] = await db.batch([
    db
      .prepare(
        `UPDATE mail_outbox SET status = 'queued', attempts = 0, updated_at = ?
         WHERE id = ? AND status = 'failed' RETURNING id`,
      )
      .bind(new Date().toISOString(), id),
    audit(db, { id: account.id, email: account.email }, 'mail.resend', `mail/${id}`, {
      kind: row.kind,
    }),
  ])
  if (requeued.results.length) c.executionCtx.waitUntil(sendJobs(c.env, [id]))
  return c.redirect('/desk/mail?done=resent', 303)
})

/**
 * The e-mails held after a surge, all at once: sent (the agency judged the sign-ups real) or
 * dropped (a bot's: they are never sent). Either way the desk's notice goes.
 */
deskMail.post('/held/:choice{release|drop}', sameSiteOnly(), limitBody(1024), async (c) => {
  const release = c.req.param('choice') === 'release'
  const db = c.env.DB
  const account = c.var.account!
  const [changed] = await db.batch([
    db
      .prepare(
        `UPDATE mail_outbox SET status = ?, updated_at = ?,
           last_error = CASE WHEN ? THEN last_error ELSE 'dropped in the desk after a surge' END
         WHERE status = 'held' RETURNING id`,
      )
      .bind(release ? 'queued' : 'suppressed', new Date().toISOString(), release ? 1 : 0),
    audit(
      db,
      { id: account.id, email: account.email },
      release ? 'mail.release_held' : 'mail.drop_held',
      'mail/held',
      {},
    ),
  ])
  const ids = (changed.results as { id: number }[]).map((r) => r.id)
  if (release && ids.length) c.executionCtx.waitUntil(sendJobs(c.env, ids))
  return c.redirect(`/desk/mail?done=${release ? 'released' : 'dropped'}`, 303)
})
