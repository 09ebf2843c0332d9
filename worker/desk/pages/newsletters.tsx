import CountedField from '../../../client/islands/counted-field'
import MarkdownEditor from '../../../client/islands/markdown-editor'
import { inputClass, labelClass } from '../../../client/components/field'
import { dirOf, LANGS, LANGUAGE_NAMES, type Lang } from '../../../client/lib/languages'
import type {
  failedMails,
  FullIssue,
  IssueRecord,
  IssueStatus,
  ListedIssue,
} from '../../db/newsletters'
import { formatDateTime, formatNumber, languageName, zonedFieldValue } from '../../i18n/format'
import { usePage } from '../../render/context'
import { DeskHeader, DeskNotice, DeskTable } from './leads'

/** What the editor shows of the tab: the saved text, or as posted when refused, and issues. */
export interface NewsletterForm {
  tab: Lang
  subject: string
  body: string
  /** The saved body's HTML (the live preview before any typing). */
  preview: string
  /** Field name (or `form`) → issue: required, too_long, stale, english_first, future. */
  issues: Record<string, string>
  /** The action just done (?done=). */
  done?: string
  sendAt?: string
}

function StatusBadge({ status }: { status: IssueStatus }) {
  const { t } = usePage()
  const tone =
    status === 'sent'
      ? 'bg-green-50 text-green-800'
      : status === 'sending' || status === 'scheduled'
        ? 'bg-brand-50 text-brand-700'
        : 'bg-slate-100 text-ink-700'
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${tone}`}>
      {t(`desk.newsletters.statuses.${status}`)}
    </span>
  )
}

/** Who an issue sent now reaches: the confirmed subscribers, by language. */
function Audience({
  audience,
  texts,
}: {
  audience: Partial<Record<Lang, number>>
  texts?: Lang[]
}) {
  const { t } = usePage()
  const total = LANGS.reduce((n, l) => n + (audience[l] ?? 0), 0)
  return (
    <section aria-labelledby="audience-title" className="card space-y-3">
      <h2 id="audience-title" className="m-0 text-lg font-bold">
        {t('desk.newsletters.audience')}
      </h2>
      <p className="m-0 text-sm text-ink-700">
        {t.plural('desk.newsletters.audience_total', total)}
      </p>
      <ul className="m-0 grid list-none gap-1 p-0 text-sm sm:grid-cols-2 lg:grid-cols-3">
        {LANGS.map((l) => (
          <li key={l} className="flex flex-wrap gap-x-2">
            <span className="font-semibold">{LANGUAGE_NAMES[l]}</span>
            <span>{t.plural('desk.newsletters.audience_line', audience[l] ?? 0)}</span>
            {texts && l !== 'en' && !texts.includes(l) && (audience[l] ?? 0) > 0 && (
              <span className="text-amber-900">{t('desk.newsletters.gets_english')}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}

export function NewsletterListPage({
  issues,
  audience,
}: {
  issues: ListedIssue[]
  audience: Partial<Record<Lang, number>>
}) {
  const { t, lang, config } = usePage()
  const when = (i: ListedIssue) =>
    i.status === 'scheduled' && i.send_at
      ? t('desk.newsletters.scheduled_for', {
          at: formatDateTime(lang, i.send_at, config.timeZone),
        })
      : i.started_at
        ? formatDateTime(lang, i.started_at, config.timeZone)
        : formatDateTime(lang, i.updated_at, config.timeZone)
  return (
    <>
      <DeskHeader title={t('desk.nav.newsletters')} section="/desk/newsletters" />
      <div className="container space-y-6 pb-16">
        <p className="m-0 max-w-3xl text-ink-700">{t('desk.newsletters.intro')}</p>
        <form method="post" action="/desk/newsletters">
          <button type="submit" className="btn-primary">
            {t('desk.newsletters.new')}
          </button>
        </form>
        {issues.length === 0 ? (
          <p className="m-0 text-ink-600">{t('desk.newsletters.none')}</p>
        ) : (
          <DeskTable
            caption={t('desk.nav.newsletters')}
            columns={(['subject', 'status', 'when', 'sent'] as const).map((c) =>
              t(`desk.newsletters.columns.${c}`),
            )}
          >
            {issues.map((i) => (
              <tr key={i.id} className="border-t border-slate-200 align-top">
                <td className="px-3 py-2">
                  <a
                    href={`/desk/newsletters/${i.id}`}
                    className="font-semibold text-brand-700"
                    lang={i.subject ? 'en' : undefined}
                  >
                    {i.subject || t('desk.newsletters.untitled')}
                  </a>
                </td>
                <td className="px-3 py-2">
                  <StatusBadge status={i.status} />
                </td>
                <td className="whitespace-nowrap px-3 py-2">{when(i)}</td>
                <td className="px-3 py-2">
                  {i.status === 'sending' || i.status === 'sent'
                    ? t('desk.newsletters.sent_of', {
                        sent: formatNumber(lang, i.sent),
                        n: formatNumber(lang, i.audience ?? 0),
                      })
                    : ''}
                </td>
              </tr>
            ))}
          </DeskTable>
        )}
        <Audience audience={audience} />
      </div>
    </>
  )
}

/** The issue's record: what became of its e-mails, the failed ones with their errors. */
function Record({
  issue,
  record,
  failed,
}: {
  issue: FullIssue
  record: IssueRecord
  failed: Awaited<ReturnType<typeof failedMails>>
}) {
  const { t, lang, config } = usePage()
  const counts = [
    'queued',
    'sent',
    'failed',
    'suppressed',
    'bounced',
    'complained',
    'unsubscribed',
  ] as const
  return (
    <section aria-labelledby="record-title" className="card space-y-4">
      <div className="flex flex-wrap items-baseline gap-3">
        <h2 id="record-title" className="m-0 text-xl font-bold">
          {t('desk.newsletters.record')}
        </h2>
        <a href={`/desk/newsletters/${issue.id}`} className="text-sm font-semibold text-brand-700">
          {t('desk.newsletters.refresh')}
        </a>
      </div>
      <p className="m-0 text-sm text-ink-700">
        {issue.started_at &&
          t('desk.newsletters.started', {
            at: formatDateTime(lang, issue.started_at, config.timeZone),
          })}{' '}
        {issue.finished_at &&
          t('desk.newsletters.finished', {
            at: formatDateTime(lang, issue.finished_at, config.timeZone),
          })}{' '}
        {t.plural('desk.newsletters.written', issue.audience ?? 0, {
          done: formatNumber(lang, issue.written),
        })}
      </p>
      <dl className="m-0 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
        {counts.map((k) => (
          <div key={k} className="rounded-lg border border-slate-200 p-3">
            <dt className="text-xs text-ink-600">{t(`desk.newsletters.counts.${k}`)}</dt>
            <dd className="m-0 text-2xl font-bold" data-count={k}>
              {formatNumber(lang, record[k])}
            </dd>
          </div>
        ))}
      </dl>
      {failed.length > 0 && (
        <div className="space-y-3">
          <h3 className="m-0 text-lg font-bold">{t('desk.newsletters.failed_title')}</h3>
          <DeskTable
            caption={t('desk.newsletters.failed_title')}
            columns={(['to', 'attempts', 'error'] as const).map((c) => t(`desk.mail_columns.${c}`))}
          >
            {failed.map((m) => (
              <tr key={m.id} className="border-t border-slate-200 align-top">
                <td className="px-3 py-2" dir="ltr">
                  {m.to_address}
                </td>
                <td className="px-3 py-2">{m.attempts}</td>
                <td className="max-w-md break-words px-3 py-2 text-xs" dir="ltr">
                  {m.last_error}
                </td>
              </tr>
            ))}
          </DeskTable>
          <form method="post" action={`/desk/newsletters/${issue.id}`}>
            <input type="hidden" name="action" value="retry" />
            <button type="submit" className="btn-primary">
              {t.plural('desk.newsletters.retry', record.failed)}
            </button>
          </form>
        </div>
      )}
    </section>
  )
}

/** The e-mail itself, framed at a desktop's and a phone's width (desk/newsletters.tsx). */
function EmailPreview({ issue, tab }: { issue: FullIssue; tab: Lang }) {
  const { t, lang } = usePage()
  if (!issue.texts.en) return null
  const src = `/desk/newsletters/${issue.id}/email?tab=${tab}&v=${issue.version}`
  const shown = issue.texts[tab] ? tab : 'en'
  return (
    <section aria-labelledby="email-title" className="space-y-3">
      <h2 id="email-title" className="m-0 text-xl font-bold">
        {t('desk.newsletters.preview')}
      </h2>
      <p className="m-0 text-sm text-ink-600">
        {t('desk.newsletters.preview_note', { language: languageName(lang, shown) })}
      </p>
      <div className="flex flex-wrap items-start gap-6">
        {(
          [
            ['desktop', 680, 640],
            ['phone', 375, 640],
          ] as const
        ).map(([kind, width, height]) => (
          <figure key={kind} className="m-0 max-w-full">
            <figcaption className="mb-2 text-sm font-semibold text-ink-700">
              {t(`desk.newsletters.preview_${kind}`)}
            </figcaption>
            <iframe
              src={src}
              width={width}
              height={height}
              title={t('desk.newsletters.preview_frame', {
                language: languageName(lang, shown),
                device: t(`desk.newsletters.preview_${kind}`),
              })}
              sandbox=""
              className="max-w-full rounded-xl border border-slate-300 bg-white"
            />
          </figure>
        ))}
      </div>
    </section>
  )
}

export function NewsletterEditorPage({
  issue,
  form,
  audience,
  record,
  failed,
  staffEmail,
}: {
  issue: FullIssue
  form: NewsletterForm
  audience: Partial<Record<Lang, number>>
  record: IssueRecord | null
  failed: Awaited<ReturnType<typeof failedMails>>
  staffEmail: string
}) {
  const { t, lang: uiLang, config } = usePage()
  const base = `/desk/newsletters/${issue.id}`
  const tab = form.tab
  const editable = issue.status === 'draft' || issue.status === 'scheduled'
  const issueText = (key?: string) =>
    key ? t(`desk.newsletters.errors.${key as 'required'}`) : undefined
  const total = LANGS.reduce((n, l) => n + (audience[l] ?? 0), 0)
  const texts = LANGS.filter((l) => issue.texts[l])
  return (
    <>
      <DeskHeader
        title={issue.texts.en?.subject || t('desk.newsletters.untitled')}
        titleLang={issue.texts.en ? 'en' : undefined}
        section="/desk/newsletters"
      />
      <div className="container space-y-6 pb-16">
        <p className="m-0 text-sm">
          <a href="/desk/newsletters" className="font-semibold text-brand-700">
            {t('desk.newsletters.back')}
          </a>
        </p>
        <div className="flex flex-wrap items-center gap-3 text-sm text-ink-700">
          <StatusBadge status={issue.status} />
          {issue.status === 'scheduled' && issue.send_at && (
            <span>
              {t('desk.newsletters.scheduled_for', {
                at: formatDateTime(uiLang, issue.send_at, config.timeZone),
              })}
            </span>
          )}
          <span>
            {t('desk.newsletters.version', {
              n: issue.version,
              by: issue.updated_by,
              at: formatDateTime(uiLang, issue.updated_at, config.timeZone),
            })}
          </span>
        </div>
        {form.done && (
          <DeskNotice ok={form.done !== 'too_late' && form.done !== 'test_suppressed'}>
            {t(`desk.newsletters.done.${form.done as 'save'}`, { email: staffEmail })}
          </DeskNotice>
        )}
        {form.issues.form && (
          <p role="alert" className="m-0 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            {issueText(form.issues.form)}
          </p>
        )}

        {record && <Record issue={issue} record={record} failed={failed} />}

        <nav aria-label={t('desk.newsletters.languages')}>
          <ul className="m-0 flex list-none flex-wrap gap-2 p-0 text-sm">
            {LANGS.map((l) => {
              const has = !!issue.texts[l]
              const usable = l === 'en' || !!issue.texts.en
              const label = `${LANGUAGE_NAMES[l]} · ${t(`desk.newsletters.translation.${has ? 'done' : 'missing'}`)}`
              return (
                <li key={l}>
                  {usable ? (
                    <a
                      href={`${base}?tab=${l}`}
                      aria-current={l === tab ? 'page' : undefined}
                      className={`block rounded-lg border px-3 py-1.5 no-underline aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white ${has ? 'border-slate-300 text-ink-700' : 'border-dashed border-slate-400 text-ink-600'}`}
                    >
                      {label}
                    </a>
                  ) : (
                    <span className="block rounded-lg border border-dashed border-slate-300 px-3 py-1.5 text-ink-600">
                      {label}
                    </span>
                  )}
                </li>
              )
            })}
          </ul>
        </nav>

        {editable ? (
          <form method="post" action={base} className="card space-y-5" noValidate>
            <input type="hidden" name="version" value={issue.version} />
            <input type="hidden" name="tab" value={tab} />
            {tab !== 'en' && (
              <p className="m-0 text-sm text-ink-600">{t('desk.newsletters.translate_note')}</p>
            )}
            <CountedField
              name="subject"
              id="f-subject"
              label={t('desk.newsletters.fields.subject')}
              value={form.subject}
              min={1}
              max={200}
              countForms={t.forms('desk.content.count', { min: 1, max: 200 })}
              countLang={uiLang}
              lang={tab}
              dir={dirOf(tab)}
              error={issueText(form.issues.subject)}
            />
            <MarkdownEditor
              name="body"
              id="f-body"
              label={t('desk.newsletters.fields.body')}
              hint={t('desk.content.markdown_hint')}
              value={form.body}
              error={issueText(form.issues.body)}
              lang={tab}
              dir={dirOf(tab)}
              previewLabel={t('desk.content.preview')}
              previewHtml={form.preview}
              previewUrl="/desk/content/preview"
            />
            <div className="flex flex-wrap items-end gap-3 border-t border-slate-200 pt-5">
              <button type="submit" name="action" value="save" className="btn-ghost">
                {t('desk.newsletters.save')}
              </button>
              <button type="submit" name="action" value="test" className="btn-ghost">
                {t('desk.newsletters.test', { email: staffEmail })}
              </button>
              <button type="submit" name="action" value="send" className="btn-primary">
                {t.plural('desk.newsletters.send', total)}
              </button>
            </div>
            <div className="flex flex-wrap items-end gap-3">
              <div>
                <label htmlFor="f-send-at" className={labelClass}>
                  {t('desk.newsletters.send_at', { zone: config.timeZone })}
                </label>
                <input
                  id="f-send-at"
                  type="datetime-local"
                  name="send_at"
                  defaultValue={
                    form.sendAt ??
                    (issue.send_at ? zonedFieldValue(issue.send_at, config.timeZone) : '')
                  }
                  aria-invalid={form.issues.send_at ? true : undefined}
                  aria-describedby={`f-send-at-hint${form.issues.send_at ? ' f-send-at-error' : ''}`}
                  className={inputClass}
                />
              </div>
              <button type="submit" name="action" value="schedule" className="btn-ghost">
                {t('desk.newsletters.schedule')}
              </button>
              <p id="f-send-at-hint" className="m-0 w-full text-xs text-ink-600">
                {t('desk.newsletters.schedule_hint')}
              </p>
              {form.issues.send_at && (
                <p id="f-send-at-error" className="m-0 w-full text-sm text-red-700">
                  {issueText(form.issues.send_at)}
                </p>
              )}
            </div>
          </form>
        ) : (
          <section className="card space-y-3" lang={tab} dir={dirOf(tab)}>
            <p className="m-0 text-sm text-ink-600" lang={uiLang} dir={dirOf(uiLang)}>
              {t('desk.newsletters.frozen')}
            </p>
            <h2 className="m-0 text-xl font-bold">
              {(issue.texts[tab] ?? issue.texts.en)?.subject}
            </h2>
          </section>
        )}
        {issue.status === 'scheduled' && (
          <form method="post" action={base}>
            <input type="hidden" name="action" value="cancel" />
            <input type="hidden" name="tab" value={tab} />
            <button type="submit" className="btn-ghost">
              {t('desk.newsletters.cancel')}
            </button>
          </form>
        )}
        <EmailPreview issue={issue} tab={tab} />
        {editable && <Audience audience={audience} texts={texts} />}
      </div>
    </>
  )
}
