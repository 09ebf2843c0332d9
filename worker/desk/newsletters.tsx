import { fromZonedTime } from 'date-fns-tz'
import { Hono, type Context } from 'hono'
import * as v from 'valibot'
import { isLang, type Lang } from '../../client/lib/languages'
import { formFields } from '../api/forms'
import { audit } from '../db/desk'
import {
  audienceByLanguage,
  createIssue,
  failedMails,
  findIssue,
  issueRecord,
  listIssues,
  moveIssue,
  saveText,
  type FullIssue,
} from '../db/newsletters'
import { isSuppressed, type OutboxRow } from '../db/outbox'
import type { AppEnv } from '../env'
import { emailHash } from '../hash'
import { mailRow, insertedIds, sendJobs, writerOf } from '../mail/enqueue'
import { INERT_UNSUBSCRIBE, renderMail } from '../mail/render'
import { limitBody, sameSiteOnly } from '../middleware/form-guard'
import { lineBreaks } from '../content/kinds'
import { createTranslator } from '../i18n/translator'
import { retimedField } from '../i18n/format'
import { queueStep, startIssue } from '../newsletter/send'
import { deskTitle, staffOf } from './staff'
import { NewsletterEditorPage, NewsletterListPage, type NewsletterForm } from './pages/newsletters'

/**
 * /desk/newsletters: the agency writes an issue (a subject and Markdown per language), sees it
 * in the e-mail's own layout, sends itself a test, then sends it or schedules it; once sending,
 * the page is the issue's record. Every action writes the audit log.
 */
export const deskNewsletters = new Hono<AppEnv>()

const page = { workspace: true }

deskNewsletters.get('/', async (c) => {
  const t = c.var.t
  const [issues, audience] = await Promise.all([listIssues(c.env.DB), audienceByLanguage(c.env.DB)])
  return c.render(<NewsletterListPage issues={issues} audience={audience} />, {
    ...page,
    title: deskTitle(c, t('desk.nav.newsletters')),
    description: t('desk.description'),
  })
})

deskNewsletters.post('/', sameSiteOnly(), limitBody(1024), async (c) => {
  const id = await createIssue(c.env.DB, staffOf(c).email, c.var.config.siteUrl)
  await audit(c.env.DB, staffOf(c), 'newsletter.create', `newsletter/${id}`, {}).run()
  return c.redirect(`/desk/newsletters/${id}`, 303)
})

const idOf = (c: Context<AppEnv>) => Number(c.req.param('id'))

/** The language tab (`?tab=`; `?lang=` is the desk's own language): English until it exists. */
const tabOf = (issue: FullIssue, asked: unknown): Lang =>
  issue.texts.en && isLang(asked) ? asked : 'en'

async function renderEditor(
  c: Context<AppEnv>,
  issue: FullIssue,
  form: NewsletterForm,
  status: 200 | 400 | 409 = 200,
) {
  const db = c.env.DB
  const live = issue.status === 'sending' || issue.status === 'sent'
  const [audience, record, failed] = await Promise.all([
    audienceByLanguage(db),
    live ? issueRecord(db, issue.id) : null,
    live ? failedMails(db, issue.id) : [],
  ])
  c.status(status)
  return c.render(
    <NewsletterEditorPage
      issue={issue}
      form={form}
      audience={audience}
      record={record}
      failed={failed}
      staffEmail={staffOf(c).email}
    />,
    {
      ...page,
      title: deskTitle(c, issue.texts.en?.subject || c.var.t('desk.newsletters.untitled')),
      description: c.var.t('desk.description'),
    },
  )
}

const formOf = async (issue: FullIssue, tab: Lang, done?: string): Promise<NewsletterForm> => ({
  tab,
  subject: issue.texts[tab]?.subject ?? '',
  body: issue.texts[tab]?.body ?? '',
  // the renderer is loaded on first use (content/markdown.ts)
  preview: issue.texts[tab]
    ? (await import('../content/markdown')).renderMarkdown(issue.texts[tab].body).html
    : '',
  issues: {},
  done,
})

deskNewsletters.get('/:id{[0-9]+}', async (c) => {
  const issue = await findIssue(c.env.DB, idOf(c))
  if (!issue) return c.notFound()
  const done = c.req.query('done')
  return renderEditor(c, issue, await formOf(issue, tabOf(issue, c.req.query('tab')), done))
})

const Text = v.object({
  subject: v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.maxLength(200, 'too_long')),
  // Markdown as written (a browser posts its line breaks as CRLF): a save of the subject alone
  // leaves the body as it was
  body: v.pipe(
    v.string(),
    lineBreaks,
    v.check((s) => s.trim() !== '', 'required'),
    v.maxLength(50_000, 'too_long'),
  ),
})
const Action = v.picklist(['save', 'test', 'send', 'schedule', 'cancel', 'retry'])

deskNewsletters.post('/:id{[0-9]+}', sameSiteOnly(), limitBody(128 * 1024), async (c) => {
  const db = c.env.DB
  const issue = await findIssue(db, idOf(c))
  if (!issue) return c.json({ error: c.var.t('errors.invalid') }, 404)
  const posted = await formFields(c)
  const action = v.safeParse(Action, posted.action ?? 'save')
  const tab = tabOf(issue, posted.tab)
  const form: NewsletterForm = {
    tab,
    subject: String(posted.subject ?? ''),
    body: String(posted.body ?? ''),
    preview: '',
    issues: {},
    sendAt: String(posted.send_at ?? ''),
  }
  if (!action.success) return renderEditor(c, issue, { ...form, issues: { form: 'invalid' } }, 400)
  const staff = staffOf(c)
  const target = `newsletter/${issue.id}`
  const back = (done: string) =>
    c.redirect(`/desk/newsletters/${issue.id}?tab=${tab}&done=${done}`, 303)

  if (action.output === 'cancel') {
    const moved = await db.batch([
      moveIssue(db, issue.id, ['scheduled'], 'draft', staff.email, { send_at: null }),
      audit(db, staff, 'newsletter.cancel', target, {}),
    ])
    return back(moved[0].results.length ? 'cancel' : 'too_late')
  }
  if (action.output === 'retry') {
    const [again] = await db.batch([
      db
        .prepare(
          `UPDATE mail_outbox SET status = 'queued', attempts = 0, batch_key = NULL,
             not_before = NULL, updated_at = ?
           WHERE newsletter_id = ? AND status = 'failed' AND feedback IS NULL RETURNING id`,
        )
        .bind(new Date().toISOString(), issue.id),
      db
        .prepare(
          `UPDATE newsletter_issues SET status = 'sending', finished_at = NULL, pumped_at = ?
           WHERE id = ? AND status IN ('sending', 'sent')`,
        )
        .bind(new Date().toISOString(), issue.id),
      audit(db, staff, 'newsletter.retry', target, {}),
    ])
    if (again.results.length) await queueStep(c.env, issue.id, 0)
    return back('retry')
  }

  // every other action saves the tab's text first (a draft or a scheduled issue only)
  if (issue.status === 'sending' || issue.status === 'sent') return back('too_late')
  const text = v.safeParse(Text, form)
  if (!text.success) {
    const issues = Object.fromEntries(
      text.issues.map((i) => [String(i.path?.[0]?.key ?? 'form'), i.message]),
    )
    return renderEditor(c, issue, { ...form, issues }, 400)
  }
  const version = Number(posted.version)
  const changed =
    issue.texts[tab]?.subject !== text.output.subject || issue.texts[tab]?.body !== text.output.body
  if (changed) {
    const [saved] = await db.batch([
      ...saveText(db, issue.id, version, tab, text.output, staff.email),
      audit(db, staff, 'newsletter.save', target, { lang: tab }),
    ])
    if (!saved.results.length) {
      // someone saved first, or it started sending: the text as sent stays on the page
      const newest = (await findIssue(db, issue.id)) ?? issue
      return renderEditor(c, newest, { ...form, issues: { form: 'stale' } }, 409)
    }
  }
  const current = (await findIssue(db, issue.id))!

  if (action.output === 'test') {
    const lang = current.texts[tab] ? tab : 'en'
    // the delivery would drop it (deliver.ts): say so now rather than promise it
    if (await isSuppressed(db, await emailHash(staff.email))) {
      await audit(db, staff, 'newsletter.test', target, { lang, suppressed: true }).run()
      return back('test_suppressed')
    }
    const writer = { ...writerOf(c), lang, t: createTranslator(lang) }
    const row = await mailRow(writer, 'newsletter_test', staff.email, { issue: issue.id })
    const [result] = await db.batch([row, audit(db, staff, 'newsletter.test', target, { lang })])
    c.executionCtx.waitUntil(sendJobs(c.env, insertedIds([result], [0])))
    return back('test')
  }
  if (!current.texts.en)
    return renderEditor(c, current, { ...form, issues: { form: 'english_first' } }, 400)
  if (action.output === 'send') {
    // nobody confirmed: starting would mark it sent, to no one, for good
    const audience = Object.values(await audienceByLanguage(db)).reduce((n, k) => n + (k ?? 0), 0)
    if (!audience)
      return renderEditor(c, current, { ...form, issues: { form: 'no_audience' } }, 400)
    const started = await startIssue(c.env, issue.id, staff.email)
    await audit(db, staff, 'newsletter.send', target, { started }).run()
    return back(started ? 'send' : 'too_late')
  }
  // a scheduled issue's field shows its time: a time changed there and saved is the new one
  const retimed =
    action.output === 'save' &&
    current.status === 'scheduled' &&
    retimedField(form.sendAt, current.send_at, c.var.config.timeZone)
  if (action.output === 'schedule' || retimed) {
    const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(form.sendAt ?? '')
      ? fromZonedTime(form.sendAt!, c.var.config.timeZone)
      : null
    if (!at || Number.isNaN(at.getTime()) || at.getTime() <= Date.now())
      return renderEditor(c, current, { ...form, issues: { send_at: 'future' } }, 400)
    await db.batch([
      moveIssue(db, issue.id, ['draft', 'scheduled'], 'scheduled', staff.email, {
        send_at: at.toISOString(),
      }),
      audit(db, staff, 'newsletter.schedule', target, { at: at.toISOString() }),
    ])
    return back('schedule')
  }
  return back('save')
})

/**
 * The e-mail as a subscriber of the tab's language gets it, laid out by the mail renderer
 * itself: the editor frames it at a desktop's and a phone's width. Its own policy (index.ts):
 * no script at all, the inline styles mail needs, framed by the desk only.
 */
deskNewsletters.get('/:id{[0-9]+}/email', async (c) => {
  const issue = await findIssue(c.env.DB, idOf(c))
  if (!issue?.texts.en) return c.notFound()
  const tab = tabOf(issue, c.req.query('tab'))
  const lang = issue.texts[tab] ? tab : 'en'
  const row = {
    id: 0,
    kind: 'newsletter',
    data: JSON.stringify({ issue: issue.id }),
    category: 'marketing',
    language: lang,
    to_address: staffOf(c).email,
    site_url: c.var.config.siteUrl,
  } as OutboxRow
  // a preview's unsubscribe link goes nowhere: it must not unsubscribe the staff member
  const message = await renderMail(c.env, row, INERT_UNSUBSCRIBE)
  return c.html(message.html)
})
