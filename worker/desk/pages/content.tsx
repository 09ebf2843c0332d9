import CountedField from '../../../client/islands/counted-field'
import MarkdownEditor from '../../../client/islands/markdown-editor'
import { inputClass, labelClass } from '../../../client/components/field'
import { dirOf, LANGS, LANGUAGE_NAMES, type Lang } from '../../../client/lib/languages'
import {
  FAQ_GROUPS,
  KIND_FIELDS,
  RESULT_COUNT,
  resultName,
  type FieldSpec,
} from '../../content/kinds'
import type { MediaPicture } from '../../../client/lib/media-picture'
import type { FullItem, ListedItem, QueuedItem, RevisionRow } from '../../db/content'
import { CONTENT_KINDS, type ContentKind } from '../../db/content-kinds'
import { formatDateTime, zonedFieldValue } from '../../i18n/format'
import { isMessageKey } from '../../i18n/translator'
import { usePage } from '../../render/context'
import type { SizesState } from '../../content/media'
import { can } from '../../roles'
import { mayList, REVIEW_NOTE_MAX } from '../content-access'
import { DeskHeader, DeskNotice, DeskTable } from './leads'
import { ArticleCardField } from './social-card'

/** What the editor shows: a language's values (saved, or as posted when refused) and issues. */
export interface EditorState {
  lang: Lang
  /** Field values by form name: shared fields by name, texts as `text.<name>`. */
  values: Record<string, string>
  /** The English title (or name, or question): the page's heading. */
  title: string
  /** The saved article's HTML in this language (the preview before any typing). */
  preview: string
  /** Form name → issue (valibot's type, or ours: slug_taken, stale, …). */
  issues: Record<string, string>
  /** The action just done (?done=). */
  done?: string
  /** A refused stale save: who saved the newer version, when. */
  staleBy?: { by: string; at: string }
  /** D1 not answering: the item as saved is unknown (its version line and history not shown). */
  offline?: boolean
  /** The review's note as a reviewer typed it (sending back, refused). */
  note?: string
}

function KindNav({ kind }: { kind: ContentKind }) {
  const { t, deskRole } = usePage()
  return (
    <nav aria-label={t('desk.content.kinds_label')}>
      <ul className="m-0 flex list-none flex-wrap gap-2 p-0 text-sm">
        {CONTENT_KINDS.filter((k) => mayList(deskRole, k)).map((k) => (
          <li key={k}>
            <a
              href={`/desk/content/${k}`}
              aria-current={k === kind ? 'page' : undefined}
              className="block rounded-lg border border-slate-300 px-3 py-1 text-ink-700 no-underline aria-[current=page]:border-brand-600 aria-[current=page]:font-semibold aria-[current=page]:text-brand-700"
            >
              {t(`desk.content.kinds.${k}`)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}

function StatusBadge({
  status,
  at,
  review,
}: {
  status: string
  at?: string | null
  /** A draft waiting for review, or sent back with a note. */
  review?: 'waiting' | 'returned'
}) {
  const { t, lang, config } = usePage()
  const tone =
    status === 'published'
      ? 'bg-green-50 text-green-800'
      : status === 'scheduled' || review === 'waiting'
        ? 'bg-brand-50 text-brand-700'
        : review === 'returned'
          ? 'bg-amber-50 text-amber-900'
          : 'bg-slate-100 text-ink-700'
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${tone}`}>
      {review
        ? t(`desk_review.statuses.${review}`)
        : t(`desk.content.statuses.${status as 'draft'}`)}
      {status === 'scheduled' && at ? ` · ${formatDateTime(lang, at, config.timeZone)}` : ''}
    </span>
  )
}

/** A draft's place in the review (a listed one says `returned`, an opened one has its note). */
const reviewOf = (item: {
  status: string
  review_at: string | null
  returned?: boolean
  review_note?: string | null
}) =>
  item.status !== 'draft'
    ? undefined
    : item.review_at
      ? 'waiting'
      : item.returned || item.review_note
        ? 'returned'
        : undefined

/**
 * The drafts Writers sent for review, the longest waiting first, at the top of the content
 * desk of those who publish them: each opens in the editor, to publish or send back.
 */
function ReviewQueue({ queue }: { queue: QueuedItem[] }) {
  const { t, lang, config } = usePage()
  if (!queue.length) return null
  return (
    <section aria-labelledby="review-queue" className="card space-y-3">
      <h2 id="review-queue" className="m-0 flex items-center gap-2 text-xl font-bold">
        {t('desk_review.queue_title')}
        <span className="rounded-full bg-brand-600 px-2.5 py-0.5 text-sm text-white">
          {queue.length}
        </span>
      </h2>
      <p className="m-0 text-sm text-ink-600">{t('desk_review.queue_hint')}</p>
      <ul className="m-0 list-none space-y-2 p-0">
        {queue.map((q) => (
          <li key={q.id} className="rounded-lg border border-slate-200 px-3 py-2">
            <a
              href={`/desk/content/${q.kind}/${q.id}`}
              className="font-semibold text-brand-700"
              lang="en"
            >
              {q.title}
            </a>
            <span className="mt-1 flex flex-wrap gap-x-2 text-sm text-ink-600">
              <span>{t(`desk.content.kinds.${q.kind}`)}</span>
              <span>
                {t('desk_review.queue_sent', {
                  at: formatDateTime(lang, q.review_at, config.timeZone),
                })}
              </span>
              <span dir="ltr" className="break-words">
                {q.sent_by}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** Which languages an item has, and which are older than its English text. */
function Languages({ langs, stale }: { langs: Lang[]; stale: Lang[] }) {
  const { t } = usePage()
  return (
    <ul className="m-0 flex list-none flex-wrap gap-1 p-0">
      {LANGS.map((l) => {
        const state = !langs.includes(l) ? 'missing' : stale.includes(l) ? 'stale' : 'done'
        return (
          <li
            key={l}
            className={`rounded px-1.5 py-0.5 text-xs font-semibold uppercase ${state === 'done' ? 'bg-green-50 text-green-800' : state === 'stale' ? 'bg-amber-50 text-amber-900' : 'bg-slate-100 text-ink-600 line-through'}`}
          >
            {l}
            <span className="sr-only">: {t(`desk.content.translation.${state}`)}</span>
          </li>
        )
      })}
    </ul>
  )
}

export function ContentListPage({
  kind,
  items,
  queue,
}: {
  kind: ContentKind
  items: ListedItem[]
  queue: QueuedItem[]
}) {
  const { t, lang, config, deskRole } = usePage()
  return (
    <>
      <DeskHeader title={t('desk.nav.content')} section="/desk/content" />
      <div className="container space-y-6 pb-16">
        <ReviewQueue queue={queue} />
        {!can(deskRole, 'content.write') && (
          <p className="m-0 text-ink-600">{t('desk_review.writer_hint')}</p>
        )}
        <div className="flex flex-wrap items-center justify-between gap-4">
          <KindNav kind={kind} />
          <a href={`/desk/content/${kind}/new`} className="btn-primary">
            {t(`desk.content.new.${kind}`)}
          </a>
        </div>
        {items.length === 0 ? (
          <p className="m-0 text-ink-600">{t('desk.content.none')}</p>
        ) : (
          <DeskTable
            caption={t(`desk.content.kinds.${kind}`)}
            columns={(['title', 'status', 'languages', 'updated'] as const).map((c) =>
              t(`desk.content.columns.${c}`),
            )}
          >
            {items.map((item) => (
              <tr key={item.id} className="border-t border-slate-200 align-top">
                <td className="px-3 py-2">
                  <a
                    href={`/desk/content/${kind}/${item.id}`}
                    className="font-semibold text-brand-700"
                    lang="en"
                  >
                    {item.title || item.slug}
                  </a>
                </td>
                <td className="px-3 py-2">
                  <StatusBadge status={item.status} at={item.publish_at} review={reviewOf(item)} />
                </td>
                <td className="px-3 py-2">
                  <Languages langs={item.langs} stale={item.stale} />
                </td>
                <td className="whitespace-nowrap px-3 py-2 text-ink-600">
                  {formatDateTime(lang, item.updated_at, config.timeZone)}
                  <span className="block text-xs" dir="ltr">
                    {item.updated_by}
                  </span>
                </td>
              </tr>
            ))}
          </DeskTable>
        )}
      </div>
    </>
  )
}

/** An issue in the staff member's language: the field's limits filled in. */
function useIssue() {
  const { t } = usePage()
  return (issue: string | undefined, spec?: FieldSpec) => {
    if (!issue) return undefined
    // (a dotted issue is a message of its own: outage.desk_save_refused)
    const key = issue.includes('.') ? issue : `desk.content.errors.${issue}`
    return isMessageKey(key)
      ? t(key, { max: spec?.max ?? '', min: spec?.min ?? 1 })
      : t('desk.content.errors.invalid')
  }
}

function FieldInput({
  spec,
  shared,
  state,
  pictures,
}: {
  spec: FieldSpec
  shared: boolean
  state: EditorState
  pictures: MediaPicture[]
}) {
  const { t, lang: uiLang } = usePage()
  const issue = useIssue()
  const name = shared ? spec.name : `text.${spec.name}`
  const id = `f-${name.replace('.', '-')}`
  const value = state.values[name] ?? ''
  const label = t(`desk.content.fields.${spec.name}` as 'desk.content.fields.title')
  const error = issue(state.issues[name], spec)
  const textLang = shared ? {} : { lang: state.lang, dir: dirOf(state.lang) }
  const described = error ? `${id}-error` : undefined
  const errorLine = error && (
    <p id={`${id}-error`} className="m-0 mt-1 text-sm text-red-700">
      {error}
    </p>
  )
  switch (spec.type) {
    case 'markdown':
      return (
        <MarkdownEditor
          name={name}
          id={id}
          label={label}
          hint={t('desk.content.markdown_hint')}
          value={value}
          error={error}
          lang={state.lang}
          dir={dirOf(state.lang)}
          previewLabel={t('desk.content.preview')}
          previewHtml={state.preview}
          previewUrl="/desk/content/preview"
          picker={{
            pictures,
            uploadUrl: '/desk/content/media',
            toolbar: t('desk.content.picker.toolbar'),
            texts: {
              open: t('desk.content.picker.open'),
              title: t('desk.content.picker.title'),
              pick: t('desk.content.picker.pick'),
              none: t('desk.content.picker.none'),
              upload: t('desk.content.picker.upload'),
              uploadHint: t('desk.content.picker.upload_hint'),
              uploading: t('desk.content.picker.uploading'),
              uploadFailed: t('desk.content.picker.upload_failed'),
              alt: t('desk.content.picker.alt', { language: LANGUAGE_NAMES[state.lang] }),
              altRequired: t('desk.content.errors.alt_required'),
              pickRequired: t('desk.content.picker.pick_required'),
              insert: t('desk.content.picker.insert'),
              cancel: t('desk.content.picker.cancel'),
            },
          }}
        />
      )
    case 'textarea':
    case 'lines':
      if (spec.min)
        return (
          <CountedField
            name={name}
            id={id}
            label={label}
            value={value}
            min={spec.min}
            max={spec.max}
            countForms={t.forms('desk.content.count', { min: spec.min, max: spec.max })}
            countLang={uiLang}
            error={error}
            lang={state.lang}
            dir={dirOf(state.lang)}
          />
        )
      return (
        <div>
          <label htmlFor={id} className={labelClass}>
            {label}
          </label>
          <textarea
            id={id}
            name={name}
            // a list shows its lines whole (a plan's eight features), up to a screen's worth
            rows={
              spec.type === 'lines' ? Math.min(16, Math.max(6, value.split('\n').length + 1)) : 3
            }
            defaultValue={value}
            required={!spec.optional}
            maxLength={spec.max}
            aria-invalid={error ? true : undefined}
            aria-describedby={described}
            className={inputClass}
            {...textLang}
          />
          {spec.type === 'lines' && (
            <p className="m-0 mt-1 text-xs text-ink-600">{t('desk.content.lines_hint')}</p>
          )}
          {errorLine}
        </div>
      )
    case 'results':
      return (
        <fieldset className="m-0 grid gap-3 border-0 p-0 sm:grid-cols-2">
          <legend className={labelClass}>{label}</legend>
          {Array.from({ length: RESULT_COUNT }, (_, i) =>
            (['value', 'label'] as const).map((part) => {
              const n = resultName(i, part)
              const partError = issue(state.issues[n], spec)
              return (
                <div key={n}>
                  <label htmlFor={`f-${n}`} className="mb-1 block text-xs text-ink-700">
                    {t(`desk.content.result_${part}`, { n: i + 1 })}
                  </label>
                  <input
                    id={`f-${n}`}
                    name={n}
                    defaultValue={state.values[n] ?? ''}
                    required
                    maxLength={spec.max}
                    aria-invalid={partError ? true : undefined}
                    className={inputClass}
                    {...textLang}
                    // "+164%" reads left to right in every language, as the portfolio shows it
                    {...(part === 'value' ? { dir: 'ltr' } : {})}
                  />
                  {partError && <p className="m-0 mt-1 text-sm text-red-700">{partError}</p>}
                </div>
              )
            }),
          )}
        </fieldset>
      )
    case 'checkbox':
      return (
        <div className="flex items-center gap-2">
          <input
            id={id}
            type="checkbox"
            name={name}
            value="1"
            defaultChecked={value === '1' || value === 'true'}
            className="h-5 w-5"
          />
          <label htmlFor={id} className="text-sm font-medium text-ink-700">
            {label}
          </label>
        </div>
      )
    case 'group':
      return (
        <div>
          <label htmlFor={id} className={labelClass}>
            {label}
          </label>
          <select id={id} name={name} defaultValue={value} required className={inputClass}>
            {FAQ_GROUPS.map((g) => (
              <option key={g} value={g}>
                {g === 'pricing' ? t('desk.content.pricing_group') : t(`faq.group_titles.${g}`)}
              </option>
            ))}
          </select>
          {errorLine}
        </div>
      )
    case 'image':
      return (
        <fieldset className="m-0 space-y-3 border-0 p-0">
          <legend className={labelClass}>{label}</legend>
          {value && (
            <img
              src={`/media/${value}`}
              alt=""
              width={320}
              height={200}
              className="block h-auto max-h-48 w-auto rounded-lg border border-slate-200 object-contain"
            />
          )}
          <div>
            <label htmlFor={`${id}-pick`} className="mb-1 block text-xs text-ink-700">
              {t('desk.content.cover_pick')}
            </label>
            <select id={`${id}-pick`} name={name} defaultValue={value} className={inputClass}>
              <option value="">{t('desk.content.cover_none')}</option>
              {pictures.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name} ({p.width}×{p.height})
                </option>
              ))}
              {value && !pictures.some((p) => p.name === value) && (
                <option value={value}>{value}</option>
              )}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-file`} className="mb-1 block text-xs text-ink-700">
              {t('desk.content.cover_upload')}
            </label>
            <input
              id={`${id}-file`}
              type="file"
              name="picture"
              accept="image/jpeg,image/png,image/webp"
              aria-describedby={`${id}-file-hint${error ? ` ${id}-error` : ''}`}
              className="block w-full text-sm"
            />
            <p id={`${id}-file-hint`} className="m-0 mt-1 text-xs text-ink-600">
              {t('desk.content.cover_hint')}
            </p>
          </div>
          {errorLine}
        </fieldset>
      )
    default:
      return (
        <div>
          <label htmlFor={id} className={labelClass}>
            {label}
          </label>
          <input
            id={id}
            name={name}
            defaultValue={value}
            required={!spec.optional}
            maxLength={spec.max}
            inputMode={spec.type === 'price' ? 'numeric' : undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={described}
            className={inputClass}
            {...(spec.type === 'price' || spec.type === 'category' ? { dir: 'ltr' } : textLang)}
          />
          {(spec.type === 'price' || spec.type === 'category') && (
            <p className="m-0 mt-1 text-xs text-ink-600">{t(`desk.content.${spec.type}_hint`)}</p>
          )}
          {errorLine}
        </div>
      )
  }
}

/**
 * The form's pictures whose smaller sizes are not all made yet (made just after the upload,
 * content/media-sizes-job.ts), or failed after every attempt: with a button that asks again.
 */
function PictureSizes({ sizes, back }: { sizes: SizesState[]; back: string }) {
  const { t } = usePage()
  if (!sizes.length) return null
  return (
    <ul className="m-0 list-none space-y-2 p-0">
      {sizes.map((s) => (
        <li key={s.name}>
          {s.state === 'pending' ? (
            <DeskNotice ok>{t('desk.content.sizes.pending', { name: s.name })}</DeskNotice>
          ) : (
            <div role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
              <p className="m-0">
                {t('desk.content.sizes.failed', { name: s.name, error: s.error ?? '' })}
              </p>
              <form method="post" action={`/desk/content/media/${s.name}/sizes`} className="mt-2">
                <input type="hidden" name="back" value={back} />
                <button type="submit" className="btn-ghost py-1.5 text-sm">
                  {t('desk.content.sizes.retry')}
                </button>
              </form>
            </div>
          )}
        </li>
      ))}
    </ul>
  )
}

export function ContentEditorPage({
  item,
  state,
  revisions,
  pictures,
  sizes,
}: {
  item: FullItem
  state: EditorState
  revisions: RevisionRow[]
  pictures: MediaPicture[]
  sizes: SizesState[]
}) {
  const { t, lang: uiLang, config, deskRole } = usePage()
  const issue = useIssue()
  const kind = item.kind
  const isNew = item.id === 0
  // a Writer (no content.publish) sends for review; while it waits, their draft is read-only
  const publishes = can(deskRole, 'content.publish')
  const reviewer = can(deskRole, 'content.write')
  const locked = item.review_at !== null && !reviewer
  // (a save refused as locked shows the text as posted, to copy)
  const readOnly = locked && state.issues.form !== 'desk_review.errors.locked'
  const sentBy = revisions.find((r) => r.action === 'review_submit')?.author
  const base = isNew ? `/desk/content/${kind}/new` : `/desk/content/${kind}/${item.id}`
  const en = item.texts.en
  const stale = (l: Lang) =>
    l !== 'en' && !!item.texts[l] && !!en && (item.texts[l]!.source_at ?? '') < en.updated_at
  const fields = KIND_FIELDS[kind]
  const tab = state.lang
  const canEditSlug = kind === 'article' && tab === 'en' && !item.published_at
  return (
    <>
      <DeskHeader
        title={isNew ? t(`desk.content.new.${kind}`) : state.title || item.slug}
        titleLang={isNew ? undefined : 'en'}
        section="/desk/content"
      />
      <div className="container space-y-6 pb-16">
        <p className="m-0 text-sm">
          <a href={`/desk/content/${kind}`} className="font-semibold text-brand-700">
            {t('desk.content.back', { kind: t(`desk.content.kinds.${kind}`) })}
          </a>
        </p>
        {!isNew && !state.offline && (
          <div className="flex flex-wrap items-center gap-3 text-sm text-ink-700">
            <StatusBadge status={item.status} at={item.publish_at} review={reviewOf(item)} />
            <span>
              {t('desk.content.version', {
                n: item.version,
                by: item.updated_by,
                at: formatDateTime(uiLang, item.updated_at, config.timeZone),
              })}
            </span>
            {kind === 'article' && item.status === 'published' && (
              <a
                href={`/blog/${item.slug}${tab === 'en' ? '' : `?lang=${tab}`}`}
                className="font-semibold text-brand-700"
              >
                {t('desk.content.view')}
              </a>
            )}
          </div>
        )}
        {state.done && (
          <DeskNotice ok={state.done !== 'stale' && state.done !== 'locked'}>
            {state.done === 'review' || state.done === 'review_return'
              ? t(`desk_review.done.${state.done}`)
              : state.done === 'locked'
                ? t('desk_review.errors.locked')
                : t(`desk.content.done.${state.done as 'save'}`)}
          </DeskNotice>
        )}
        {item.review_at && !state.offline && (reviewer || state.done !== 'review') && (
          <ReviewBox
            item={item}
            base={base}
            tab={tab}
            state={state}
            reviewer={reviewer}
            sentBy={sentBy}
          />
        )}
        {item.review_note && !item.review_at && (
          <section
            aria-labelledby="review-note-title"
            className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900"
          >
            <h2 id="review-note-title" className="m-0 text-base font-bold">
              {t('desk_review.returned_title')}
            </h2>
            <p className="m-0 mt-2 whitespace-pre-line break-words" dir="auto">
              {item.review_note}
            </p>
            {!reviewer && <p className="m-0 mt-2 text-sm">{t('desk_review.returned_hint')}</p>}
          </section>
        )}
        {state.issues.form && (
          <div role="alert" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            <p className="m-0 font-semibold">
              {state.issues.form === 'stale' && state.staleBy
                ? t('desk.content.errors.stale', {
                    by: state.staleBy.by,
                    at: formatDateTime(uiLang, state.staleBy.at, config.timeZone),
                  })
                : issue(state.issues.form)}
            </p>
            {state.issues.form === 'stale' && (
              <p className="m-0 mt-1">
                <a href={`${base}?tab=${tab}`} className="font-semibold text-brand-700">
                  {t('desk.content.open_newest')}
                </a>
              </p>
            )}
          </div>
        )}
        <PictureSizes sizes={sizes} back={`${base}?tab=${tab}`} />
        {Object.keys(state.issues).some((k) => k !== 'form' && k !== 'note') && (
          <p role="alert" className="m-0 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            {t('desk.content.errors.fields')}
          </p>
        )}

        <nav aria-label={t('desk.content.languages')}>
          <ul className="m-0 flex list-none flex-wrap gap-2 p-0 text-sm">
            {LANGS.map((l) => {
              const has = !!item.texts[l]
              const state2 = l === 'en' ? 'source' : !has ? 'missing' : stale(l) ? 'stale' : 'done'
              const usable = l === 'en' || !!en
              const label = `${LANGUAGE_NAMES[l]} · ${t(`desk.content.translation.${state2}`)}`
              return (
                <li key={l}>
                  {usable ? (
                    <a
                      href={`${base}?tab=${l}`}
                      aria-current={l === tab ? 'page' : undefined}
                      className={`block rounded-lg border px-3 py-1.5 no-underline aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white ${state2 === 'stale' ? 'border-amber-400 text-amber-900' : state2 === 'missing' ? 'border-dashed border-slate-400 text-ink-600' : 'border-slate-300 text-ink-700'}`}
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
        {tab !== 'en' && stale(tab) && (
          <DeskNotice ok={false}>{t('desk.content.stale_note')}</DeskNotice>
        )}

        <form
          method="post"
          action={base}
          encType="multipart/form-data"
          className="card space-y-5"
          noValidate
        >
          <input type="hidden" name="version" value={item.version} />
          <input type="hidden" name="lang" value={tab} />
          <fieldset
            disabled={readOnly}
            className="m-0 min-w-0 space-y-5 border-0 p-0 [&_input:disabled]:bg-slate-100 [&_select:disabled]:bg-slate-100 [&_textarea:disabled]:bg-slate-100"
          >
            {/* a testimonial has nothing shared: neither an empty box nor a note about it */}
            {kind !== 'article' && !fields.shared.length ? null : tab === 'en' ? (
              <div className="grid gap-5 md:grid-cols-2">
                {kind === 'article' && (
                  <div>
                    <label htmlFor="f-slug" className={labelClass}>
                      {t('desk.content.fields.slug')}
                    </label>
                    <input
                      id="f-slug"
                      name="slug"
                      dir="ltr"
                      defaultValue={state.values.slug ?? item.slug}
                      readOnly={!canEditSlug}
                      required
                      maxLength={80}
                      aria-invalid={state.issues.slug ? true : undefined}
                      aria-describedby="f-slug-hint"
                      className={`${inputClass} read-only:bg-slate-50`}
                    />
                    <p id="f-slug-hint" className="m-0 mt-1 text-xs text-ink-600">
                      {canEditSlug ? t('desk.content.slug_hint') : t('desk.content.slug_fixed')}
                    </p>
                    {state.issues.slug && (
                      <p className="m-0 mt-1 text-sm text-red-700">{issue(state.issues.slug)}</p>
                    )}
                  </div>
                )}
                {fields.shared.map((spec) => (
                  <FieldInput
                    key={spec.name}
                    spec={spec}
                    shared
                    state={state}
                    pictures={pictures}
                  />
                ))}
              </div>
            ) : (
              <p className="m-0 text-sm text-ink-600">{t('desk.content.shared_on_english')}</p>
            )}
            <div className="grid gap-5">
              {fields.texts.map((spec) => (
                <FieldInput
                  key={spec.name}
                  spec={spec}
                  shared={false}
                  state={state}
                  pictures={pictures}
                />
              ))}
              {kind === 'article' && <ArticleCardField item={item} tab={tab} pictures={pictures} />}
            </div>
          </fieldset>

          {!locked && (
            <div className="flex flex-wrap items-end gap-3 border-t border-slate-200 pt-5">
              <button type="submit" name="action" value="save" className="btn-ghost">
                {item.status === 'published' ? t('desk.content.save_live') : t('desk.content.save')}
              </button>
              {publishes && item.status !== 'published' && (
                <button type="submit" name="action" value="publish" className="btn-primary">
                  {t('desk.content.publish')}
                </button>
              )}
              {publishes && (item.status === 'published' || item.status === 'scheduled') && (
                <button type="submit" name="action" value="unpublish" className="btn-ghost">
                  {t('desk.content.unpublish')}
                </button>
              )}
              {!publishes && item.status === 'draft' && !item.review_at && (
                <>
                  <button type="submit" name="action" value="review" className="btn-primary">
                    {t('desk_review.submit')}
                  </button>
                  <p className="m-0 w-full text-xs text-ink-600">{t('desk_review.submit_hint')}</p>
                </>
              )}
            </div>
          )}
          {publishes && item.status !== 'published' && (
            <div className="flex flex-wrap items-end gap-3">
              <div>
                <label htmlFor="f-publish-at" className={labelClass}>
                  {t('desk.content.publish_at', { zone: config.timeZone })}
                </label>
                <input
                  id="f-publish-at"
                  type="datetime-local"
                  name="publish_at"
                  defaultValue={
                    state.values.publish_at ??
                    (item.publish_at ? zonedFieldValue(item.publish_at, config.timeZone) : '')
                  }
                  aria-invalid={state.issues.publish_at ? true : undefined}
                  aria-describedby="f-publish-at-hint"
                  className={inputClass}
                />
              </div>
              <button type="submit" name="action" value="schedule" className="btn-ghost">
                {t('desk.content.schedule')}
              </button>
              <p id="f-publish-at-hint" className="m-0 w-full text-xs text-ink-600">
                {t('desk.content.schedule_hint')}
              </p>
              {state.issues.publish_at && (
                <p className="m-0 w-full text-sm text-red-700">{issue(state.issues.publish_at)}</p>
              )}
            </div>
          )}
        </form>

        {revisions.length > 0 && (
          <section aria-labelledby="revisions-title" className="space-y-3">
            <h2 id="revisions-title" className="m-0 text-xl font-bold">
              {t('desk.content.revisions')}
            </h2>
            <ol className="m-0 list-none space-y-2 p-0 text-sm">
              {revisions.map((r) => (
                <li
                  key={r.id}
                  className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 px-3 py-2"
                >
                  <span className="font-semibold">v{r.version}</span>
                  <span>
                    {r.action === 'review_submit' || r.action === 'review_return'
                      ? t(`desk_review.actions.${r.action}`)
                      : t(`desk.content.actions.${r.action as 'save'}`)}
                  </span>
                  <span dir="ltr">{r.author}</span>
                  <span className="text-ink-600">
                    {formatDateTime(uiLang, r.created_at, config.timeZone)}
                  </span>
                  {r.version !== item.version && !locked && (
                    <form method="post" action={`${base}/restore`} className="ms-auto">
                      <input type="hidden" name="revision" value={r.id} />
                      <input type="hidden" name="tab" value={tab} />
                      <input type="hidden" name="version" value={item.version} />
                      <button
                        type="submit"
                        className="btn-ghost px-3 py-1 text-sm"
                        aria-label={t('desk.content.restore_label', { n: r.version })}
                      >
                        {t('desk.content.restore')}
                      </button>
                    </form>
                  )}
                </li>
              ))}
            </ol>
          </section>
        )}
      </div>
    </>
  )
}

/**
 * A draft waiting for review: to a reviewer, who sent it and when, and "Send back" with a note
 * (publishing is the form's own button); to its Writer, that it stays as sent while it waits.
 */
function ReviewBox({
  item,
  base,
  tab,
  state,
  reviewer,
  sentBy,
}: {
  item: FullItem
  base: string
  tab: Lang
  state: EditorState
  reviewer: boolean
  sentBy?: string
}) {
  const { t, lang, config } = usePage()
  const at = formatDateTime(lang, item.review_at!, config.timeZone)
  if (!reviewer) return <DeskNotice>{t('desk_review.waiting_writer', { at })}</DeskNotice>
  const error = state.issues.note
    ? t(`desk_review.errors.${state.issues.note as 'note_required'}`, { max: REVIEW_NOTE_MAX })
    : undefined
  return (
    <section
      aria-labelledby="review-title"
      className="space-y-3 rounded-2xl border border-brand-200 bg-brand-50 p-4"
    >
      <h2 id="review-title" className="m-0 text-lg font-bold">
        {t('desk_review.waiting_title')}
      </h2>
      <p className="m-0 text-sm">
        {t('desk_review.waiting_reviewer', { at })}{' '}
        {sentBy && (
          // its own line, kept whole (an address breaks badly at its hyphens)
          <span className="block font-semibold">
            <span dir="ltr">{sentBy}</span>
          </span>
        )}
      </p>
      <form method="post" action={`${base}/return`} className="space-y-2" noValidate>
        <input type="hidden" name="version" value={item.version} />
        <input type="hidden" name="tab" value={tab} />
        <label htmlFor="f-review-note" className={labelClass}>
          {t('desk_review.note_label')}
        </label>
        <textarea
          id="f-review-note"
          name="note"
          rows={3}
          required
          maxLength={REVIEW_NOTE_MAX}
          defaultValue={state.note ?? ''}
          aria-invalid={error ? true : undefined}
          aria-describedby={`f-review-note-hint${error ? ' f-review-note-error' : ''}`}
          className={inputClass}
        />
        <p id="f-review-note-hint" className="m-0 text-xs text-ink-600">
          {t('desk_review.note_hint', { max: REVIEW_NOTE_MAX })}
        </p>
        {error && (
          <p id="f-review-note-error" className="m-0 text-sm text-red-700">
            {error}
          </p>
        )}
        <button type="submit" className="btn-ghost">
          {t('desk_review.return')}
        </button>
      </form>
    </section>
  )
}
