import { formFields, readForm } from '../api/forms'
import { fromZonedTime } from 'date-fns-tz'
import { Hono, type Context } from 'hono'
import * as v from 'valibot'
import { isLang, LANGS, type Lang } from '../../client/lib/languages'
import { currentGenerations } from '../content/generations'
import { formValues, KIND_FIELDS, readFields, SLUG } from '../content/kinds'
import { readSnapshot, writeSnapshot } from '../content/snapshot'
import { isDatabaseError } from '../db/outage'
import { retimedField } from '../i18n/format'
import { RETRY_AFTER_SECONDS } from '../pages/error-page'
import {
  findMedia,
  findMediaNamed,
  MEDIA_NAME,
  listMedia,
  MEDIA_MAX_BYTES,
  storeCard,
  storeMedia,
  unfinishedSizes,
} from '../content/media'
import { mediaNamesIn } from '../content/media-sizes'
import { queueSizes } from '../content/media-sizes-job'
import {
  findItem,
  isStaleSave,
  listItems,
  reviewQueue,
  revisions,
  revisionSnapshot,
  saveItem,
  slugTaken,
  type FullItem,
} from '../db/content'
import { isContentKind, type ContentKind, type ContentStatus } from '../db/content-kinds'
import type { AppEnv, DeskDown } from '../env'
import { limitBody, sameSiteOnly } from '../middleware/form-guard'
import { DESK_CONTENT_BYTES } from '../middleware/request-size'
import { can } from '../roles'
import { lockedInReview, mayEdit, mayList, REVIEW_NOTE_MAX } from './content-access'
import { deskTitle, staffOf } from './staff'
import { ContentEditorPage, ContentListPage, type EditorState } from './pages/content'
import { ContentSnapshotPage } from './pages/content-snapshot'
import { contentPublishedEvent, dispatch, eventOf } from '../webhooks/events'

/**
 * /desk/content: the agency's articles, cases, testimonials, plans and questions. One form per
 * item and language (multipart: it may carry a picture); its buttons save, publish, schedule or
 * unpublish. Every save names the version it started from (a newer one refuses it, 409, the
 * text sent back whole), is a revision, writes the audit log and, when the item is or was
 * live, raises its kind's cache generation: every page that shows it is rendered anew.
 * A Writer opens only their own drafts of articles and case studies (content-access.ts) and
 * sends them for review; the review queue heads the lists of those who write every kind, who
 * publish a draft from it or send it back with a note (/return).
 */
export const deskContent = new Hono<AppEnv>()

/**
 * The Markdown renderer (content/markdown.ts), loaded on a save or a preview: marked and
 * sanitize-html are a good part of an isolate's start-up, and the pages never render Markdown.
 */
const markdown = () => import('../content/markdown')

deskContent.get('/', (c) => c.redirect('/desk/content/article', 302))

deskContent.get('/:kind', async (c) => {
  const kind = c.req.param('kind')
  if (!isContentKind(kind) || !mayList(c.var.deskRole, kind)) return c.notFound()
  const t = c.var.t
  const head = {
    title: deskTitle(c, t(`desk.content.kinds.${kind}`)),
    description: t('desk.description'),
    workspace: true,
  }
  try {
    if (!c.var.deskReadOnly) {
      // a Writer's own drafts; for the others every item, and the drafts waiting for review
      const everyone = can(c.var.deskRole, 'content.write')
      const [items, queue] = await Promise.all([
        listItems(c.env.DB, kind, everyone ? {} : { author: staffOf(c).id }),
        everyone ? reviewQueue(c.env.DB) : [],
      ])
      return c.render(<ContentListPage kind={kind} items={items} queue={queue} />, head)
    }
  } catch (err) {
    if (!isDatabaseError(err)) throw err
    console.error('desk: D1 failed, the snapshot shown', err)
  }
  // D1 not answering: what the site shows, read-only
  const snapshot = await readSnapshot(c.env, kind).catch(() => null)
  c.status(503)
  c.header('Retry-After', String(RETRY_AFTER_SECONDS))
  return c.render(
    <ContentSnapshotPage kind={kind} snapshot={snapshot} down={c.var.deskReadOnly ?? 'database'} />,
    head,
  )
})

const Id = v.union([
  v.literal('new'),
  v.pipe(v.string(), v.regex(/^\d{1,12}$/), v.transform(Number)),
])

/** A new item: nothing saved yet, English first (every other language translates it). */
const blank = (kind: ContentKind): FullItem => ({
  id: 0,
  kind,
  slug: '',
  status: 'draft',
  publish_at: null,
  published_at: null,
  position: 0,
  fields: {},
  version: 0,
  updated_at: '',
  updated_by: '',
  author_id: null,
  review_at: null,
  review_note: null,
  texts: {},
})

/**
 * The item the address names, when this staff member may open it (content-access.ts: a
 * Writer's own draft of their kinds); else null, as for one that does not exist.
 */
async function loadItem(c: Context<AppEnv>) {
  const kind = c.req.param('kind') ?? ''
  const id = v.safeParse(Id, c.req.param('id'))
  if (!isContentKind(kind) || !id.success) return null
  const item = id.output === 'new' ? blank(kind) : await findItem(c.env.DB, kind, id.output)
  return item && mayEdit(c.var.deskRole, c.var.account, item) ? item : null
}

/**
 * A post for an item that is not there or not the staff member's: 403 to a Writer (as to a
 * visitor: nothing said of whether it exists), 404 to those who may open every item.
 */
const noItem = (c: Context<AppEnv>) =>
  can(c.var.deskRole, 'content.write')
    ? c.json({ error: c.var.t('errors.invalid') }, 404)
    : c.json({ error: c.var.t('desk.forbidden') }, 403)

/**
 * The language tab asked for (`?tab=`: `?lang=` is the desk's own language); a new item, or one
 * without English yet, starts in English.
 */
function tabOf(c: Context<AppEnv>, item: FullItem): Lang {
  const asked = c.req.query('tab')
  return item.texts.en && isLang(asked) ? asked : 'en'
}

async function renderEditor(c: Context<AppEnv>, item: FullItem, state: EditorState, status = 200) {
  const t = c.var.t
  // (D1 not answering, the form still comes back: without its history and pictures)
  const shown = [state.values.cover ?? '', ...mediaNamesIn(state.values['text.body'] ?? '')]
  const [history, pictures, sizes] = state.offline
    ? [[], [], []]
    : await Promise.all([
        item.id ? revisions(c.env.DB, item.id) : [],
        listMedia(c.env.DB, 24),
        unfinishedSizes(c.env.DB, shown.filter(Boolean)),
      ])
  c.status(status as 200)
  const name = item.id ? state.title || item.slug : t(`desk.content.new.${item.kind}`)
  return c.render(
    <ContentEditorPage
      item={item}
      state={state}
      revisions={history}
      pictures={pictures}
      sizes={sizes}
    />,
    { title: deskTitle(c, name), description: t('desk.description'), workspace: true },
  )
}

/**
 * The form's values of one language as the editor shows them: the shared fields by name, the
 * texts as `text.<name>` (a case's results by their own names, as readFields takes them).
 */
const valuesOf = (item: FullItem, lang: Lang): Record<string, string> => {
  const texts = formValues(item.kind, 'texts', item.texts[lang]?.fields ?? {})
  return {
    slug: item.slug,
    ...formValues(item.kind, 'shared', item.fields),
    ...Object.fromEntries(
      Object.entries(texts).map(([k, v]) => [k.startsWith('result_') ? k : `text.${k}`, v]),
    ),
  }
}

/** The editor as the item is saved, in a language. */
const editorState = (item: FullItem, lang: Lang): EditorState => ({
  lang,
  values: valuesOf(item, lang),
  title: String(item.texts.en?.fields[firstField(item.kind)] ?? ''),
  preview: item.kind === 'article' ? String(item.texts[lang]?.fields.html ?? '') : '',
  issues: {},
})

deskContent.get('/:kind/:id', async (c) => {
  const item = await loadItem(c)
  if (!item) return c.notFound()
  return renderEditor(c, item, {
    ...editorState(item, tabOf(c, item)),
    done: c.req.query('done') ?? undefined,
  })
})

/** A live item changed: its kind's new generation read now, its snapshot written after the answer. */
async function afterLiveChange(c: Context<AppEnv>, kind: ContentKind) {
  await currentGenerations(c.env.DB, { afterChange: true })
  c.executionCtx.waitUntil(
    writeSnapshot(c.env, kind).catch((err: unknown) => console.error('snapshot unwritten', err)),
  )
}

const firstField = (kind: ContentKind) => KIND_FIELDS[kind].texts[0].name

/** The editor's buttons; `review`: a Writer's "Send for review" (saves, then waits for review). */
const Action = v.picklist(['save', 'publish', 'schedule', 'unpublish', 'review'])

/** The posted form: text fields under `text.<name>`, shared ones by name (multipart). */
async function postedForm(c: Context<AppEnv>) {
  const body = await c.req.parseBody()
  const form: Record<string, string> = {}
  let picture: File | undefined
  // the article's social cards its browser drew, by language (decision 007)
  const cards = new Map<Lang, File>()
  for (const [key, value] of Object.entries(body)) {
    if (value instanceof File) {
      if (key === 'picture' && value.size > 0) picture = value
      const lang = key.startsWith('card_') ? key.slice(5) : null
      if (isLang(lang) && value.size > 0) cards.set(lang, value)
    } else if (typeof value === 'string') form[key] = value
  }
  return { form, picture, cards }
}

const textsOnly = (form: Record<string, string>) => {
  const texts: Record<string, string> = {}
  for (const [key, value] of Object.entries(form))
    if (key.startsWith('text.')) texts[key.slice(5)] = value
    else if (key.startsWith('result_')) texts[key] = value
  return texts
}

deskContent.post('/:kind/:id', sameSiteOnly(), limitBody(DESK_CONTENT_BYTES), async (c) => {
  if (c.var.deskReadOnly) return refusedWhileDown(c, c.var.deskReadOnly)
  try {
    return await saveFromForm(c)
  } catch (err) {
    if (!isDatabaseError(err)) throw err
    console.error('desk: save refused, D1 failed', err)
    return refusedWhileDown(c, 'database')
  }
})

/**
 * D1 or the sign-in service not answering: nothing saved, and the form comes back as it was
 * posted, with the message saying which (503, Retry-After). The item as saved, its status and
 * history, when D1 still answers; else only its kind, id and version.
 */
async function refusedWhileDown(c: Context<AppEnv>, down: DeskDown) {
  const { form } = await postedForm(c)
  const kind = c.req.param('kind') ?? ''
  const id = v.safeParse(Id, c.req.param('id'))
  if (!isContentKind(kind) || !id.success) return c.notFound()
  if (!mayList(c.var.deskRole, kind)) return noItem(c)
  const lang: Lang = isLang(form.lang) ? form.lang : 'en'
  const saved = down === 'sign-in' ? await loadItem(c).catch(() => null) : null
  const item: FullItem = saved ?? {
    ...blank(kind),
    id: id.output === 'new' ? 0 : id.output,
    slug: form.slug ?? '',
    version: Number(form.version) || 0,
  }
  c.header('Retry-After', String(RETRY_AFTER_SECONDS))
  return renderEditor(
    c,
    item,
    {
      lang,
      values: form,
      title: form[`text.${firstField(kind)}`] ?? '',
      preview: '',
      issues: {
        form: down === 'sign-in' ? 'outage.desk_save_refused_sign_in' : 'outage.desk_save_refused',
      },
      offline: !saved,
    },
    503,
  )
}

async function saveFromForm(c: Context<AppEnv>) {
  // the form first: D1 failing below, it still comes back as posted
  const { form, picture, cards } = await postedForm(c)
  const current = await loadItem(c)
  if (!current) return noItem(c)
  const kind = current.kind
  const lang: Lang =
    isLang(form.lang) && (current.texts.en || form.lang === 'en') ? form.lang : 'en'
  const action = v.safeParse(Action, form.action ?? 'save')
  const version = Number(form.version)
  const state: EditorState = {
    lang,
    values: form,
    title: String(
      current.texts.en?.fields[firstField(kind)] ?? form[`text.${firstField(kind)}`] ?? '',
    ),
    preview: '',
    issues: {},
  }
  if (!action.success || !Number.isInteger(version)) {
    state.issues.form = 'invalid'
    return renderEditor(c, current, state, 400)
  }
  // publishing, scheduling, unpublishing, or changing what visitors read (or will): the route
  // needs content.write, this content.publish as well
  if (changesLive(current, action.output) && !can(c.var.deskRole, 'content.publish'))
    return c.json({ error: c.var.t('desk.forbidden') }, 403)
  // a Writer's draft sent for review stays as sent: nothing stored, the text shown as posted
  if (lockedInReview(c.var.deskRole, current)) {
    state.issues.form = 'desk_review.errors.locked'
    return renderEditor(c, current, state, 409)
  }
  // only a draft not already waiting goes for review
  if (action.output === 'review' && (current.status !== 'draft' || current.review_at !== null)) {
    state.issues.form = 'desk_review.errors.not_draft'
    return renderEditor(c, current, state, 409)
  }

  // what the form says, checked field by field (issues shown beside each, nothing lost)
  const texts = readFields(kind, 'texts', textsOnly(form))
  const shared = lang === 'en' ? readFields(kind, 'shared', form) : null
  if (!texts.ok) Object.assign(state.issues, prefixed(texts.issues, kind))
  if (shared && !shared.ok) Object.assign(state.issues, shared.issues)
  let slug = current.slug
  if (kind === 'article' && lang === 'en' && !current.published_at) {
    slug = (form.slug ?? '').trim()
    if (!SLUG.test(slug) || slug.length > 80) state.issues.slug = 'slug'
    else if (await slugTaken(c.env.DB, kind, slug, current.id || undefined))
      state.issues.slug = 'slug_taken'
  } else if (!slug) slug = `${kind}-${crypto.randomUUID().slice(0, 8)}`

  // a picture sent with the form becomes the cover
  const fields = shared?.ok ? { ...current.fields, ...shared.fields } : { ...current.fields }
  if (picture) {
    const stored = await storeMedia(c.env, picture, staffOf(c).email)
    if (!stored.ok) state.issues.cover = stored.error
    else {
      fields.cover = stored.media
      state.values = { ...state.values, cover: stored.media.name }
    }
  } else if (shared?.ok && 'cover' in shared.fields) {
    const name = shared.fields.cover as string
    const found = name ? await findMedia(c.env.DB, name) : null
    if (name && !found) state.issues.cover = 'media_type'
    fields.cover = found ?? undefined
  }
  // what the form does not carry (a field the kind no longer edits) stays as it was
  const textFields = texts.ok ? { ...current.texts[lang]?.fields, ...texts.fields } : {}
  if (kind !== 'article') delete textFields.body
  // a picture is described in every language it is shown in
  const described = KIND_FIELDS[kind].texts.some((f) => f.name === 'cover_alt')
  if (fields.cover && described && texts.ok && !textFields.cover_alt)
    state.issues['text.cover_alt'] = 'alt_required'

  let publishAt: string | null = current.publish_at
  // a scheduled item's field shows its time: a time changed there and saved is the new one
  const retimed =
    action.output === 'save' &&
    current.status === 'scheduled' &&
    retimedField(form.publish_at, publishAt, c.var.config.timeZone)
  if (action.output === 'schedule' || retimed) {
    const at = form.publish_at ? fromZonedTime(form.publish_at, c.var.config.timeZone) : null
    if (!at || Number.isNaN(at.getTime()) || at.getTime() <= Date.now())
      state.issues.publish_at = 'schedule_past'
    else publishAt = at.toISOString()
  }
  if (
    (action.output === 'publish' || action.output === 'schedule') &&
    !current.texts.en &&
    lang !== 'en'
  )
    state.issues.form = 'english_first'

  if (Object.keys(state.issues).length) return renderEditor(c, current, state, 400)

  // the item as it is to be
  const now = new Date().toISOString()
  const en = current.texts.en
  const oldText = current.texts[lang]
  if (kind === 'article') {
    const body = String(textFields.body ?? '')
    const { renderMarkdown } = await markdown()
    const rendered = renderMarkdown(body, await findMediaNamed(c.env.DB, mediaNamesIn(body)))
    Object.assign(textFields, rendered)
  }
  const textChanged = !oldText || !sameFields(oldText.fields, textFields)
  const textUpdatedAt = textChanged ? now : (oldText?.updated_at ?? now)
  const next: FullItem = {
    ...current,
    slug,
    fields,
    version,
    texts: {
      ...current.texts,
      [lang]: {
        lang,
        fields: textFields,
        // a translation is made from the English text as it is now; English is its own source
        source_at: lang === 'en' ? textUpdatedAt : (en?.updated_at ?? now),
        updated_at: textUpdatedAt,
      },
    },
  }
  // its social cards: each drawn for the title and cover it is saved with now
  if (kind === 'article' && cards.size) {
    const drawn = { ...(next.fields.cards as Record<string, unknown> | undefined) }
    for (const [l, file] of cards) {
      const title = next.texts[l]?.fields.title
      const name = typeof title === 'string' ? await storeCard(c.env, file) : null
      if (name) drawn[l] = { name, title, cover: (fields.cover as { name?: string })?.name ?? '' }
      else console.warn('social card not stored', l)
    }
    next.fields = { ...next.fields, cards: drawn }
  }
  // an article's "Updated" date: its live English text changed
  if (kind === 'article' && lang === 'en' && textChanged && current.status === 'published')
    next.fields = { ...next.fields, updated: now.slice(0, 10) }
  let status: ContentStatus = current.status
  if (action.output === 'publish') status = 'published'
  if (action.output === 'schedule') status = 'scheduled'
  if (action.output === 'unpublish') status = 'unpublished'
  next.status = status
  next.publish_at = status === 'scheduled' ? publishAt : null
  if (status === 'published' && !next.published_at) next.published_at = now
  // sent for review: in the queue, the last note done with; published or scheduled: out of it
  if (action.output === 'review') Object.assign(next, { review_at: now, review_note: null })
  if (status === 'published' || status === 'scheduled')
    Object.assign(next, { review_at: null, review_note: null })
  const live = current.status === 'published' || status === 'published'

  try {
    const saved = await saveItem(c.env.DB, staffOf(c), next, {
      texts: textChanged || !oldText ? [lang] : [],
      // (its audit line: content.review_submit)
      action: action.output === 'review' ? 'review_submit' : action.output,
      live,
      // going live: its content.published webhook, in the same batch
      also:
        status === 'published' && current.status !== 'published'
          ? eventOf(c, contentPublishedEvent(next))
          : [],
    })
    dispatch(c, saved.also.at(-1))
    // this isolate keys its pages by the new generation at once; the snapshot follows
    if (live) await afterLiveChange(c, kind)
    return c.redirect(`/desk/content/${kind}/${saved.id}?tab=${lang}&done=${action.output}`, 303)
  } catch (err) {
    if (!isStaleSave(err)) throw err
    const newest = await findItem(c.env.DB, kind, current.id)
    state.issues.form = 'stale'
    state.staleBy = newest ? { by: newest.updated_by, at: newest.updated_at } : undefined
    return renderEditor(c, newest ?? current, state, 409)
  }
}

/** Two texts alike field by field (an empty optional field is one never filled in). */
const sameFields = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].every(
    (k) => JSON.stringify(a[k] ?? '') === JSON.stringify(b[k] ?? ''),
  )

const prefixed = (issues: Record<string, string>, kind: ContentKind) =>
  Object.fromEntries(
    Object.entries(issues).map(([name, issue]) => [
      KIND_FIELDS[kind].texts.some((f) => f.name === name) ? `text.${name}` : name,
      issue,
    ]),
  )

/** Whether a save with this action changes what visitors read, now or at a scheduled time. */
const changesLive = (item: { status: string }, action: v.InferOutput<typeof Action>) =>
  (action !== 'save' && action !== 'review') ||
  item.status === 'published' ||
  item.status === 'scheduled'

/** A revision restored: its fields and texts become the item's (itself a save, with a version). */
deskContent.post('/:kind/:id/restore', sameSiteOnly(), limitBody(4096), async (c) => {
  const current = await loadItem(c)
  const form = await formFields(c)
  const revision = Number(form.revision)
  if (!current) return noItem(c)
  if (!current.id || !Number.isInteger(revision))
    return c.json({ error: c.var.t('errors.invalid') }, 404)
  const snapshot = await revisionSnapshot(c.env.DB, current.id, revision)
  if (!snapshot) return c.json({ error: c.var.t('errors.invalid') }, 404)
  // back to the language tab the staff member restored from
  const tab = isLang(form.tab) ? form.tab : 'en'
  const back = (done: string) =>
    c.redirect(`/desk/content/${current.kind}/${current.id}?tab=${tab}&done=${done}`, 303)
  const texts = Object.fromEntries(
    Object.entries(snapshot.texts).map(([lang, t]) => [lang, { lang: lang as Lang, ...t! }]),
  )
  const next: FullItem = {
    ...current,
    fields: snapshot.fields,
    texts,
    version: Number(form.version),
  }
  const removed = LANGS.filter((l) => current.texts[l] && !snapshot.texts[l])
  const live = current.status === 'published'
  if (changesLive(current, 'save') && !can(c.var.deskRole, 'content.publish'))
    return c.json({ error: c.var.t('desk.forbidden') }, 403)
  if (lockedInReview(c.var.deskRole, current)) return back('locked')
  try {
    await saveItem(c.env.DB, staffOf(c), next, {
      texts: Object.keys(texts) as Lang[],
      removed,
      action: 'restore',
      live,
    })
    if (live) await afterLiveChange(c, current.kind)
    return back('restore')
  } catch (err) {
    if (!isStaleSave(err)) throw err
    return back('stale')
  }
})

/** A reviewer's note when sending a draft back: what the Writer is to change. */
const ReturnForm = v.object({
  version: v.pipe(v.string(), v.regex(/^\d{1,12}$/), v.transform(Number)),
  note: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('note_required'),
    v.maxLength(REVIEW_NOTE_MAX, 'note_long'),
  ),
  tab: v.optional(v.string()),
})

/**
 * "Send back" from the review: the draft returns to its Writer with the note, which they see on
 * it until they send it again (a save: a revision, and content.review_return in the audit log).
 */
deskContent.post('/:kind/:id/return', sameSiteOnly(), limitBody(16 * 1024), async (c) => {
  const current = await loadItem(c)
  const form = await formFields(c)
  if (!current || !current.id) return noItem(c)
  const tab: Lang = isLang(form.tab) && current.texts.en ? form.tab : 'en'
  const parsed = v.safeParse(ReturnForm, form)
  const state: EditorState = {
    ...editorState(current, tab),
    note: form.note ?? '',
    issues: {},
  }
  if (!parsed.success) {
    const issue = parsed.issues.find((i) => i.path?.[0]?.key === 'note')
    if (issue) state.issues.note = issue.message === 'note_long' ? 'note_long' : 'note_required'
    else state.issues.form = 'invalid'
    return renderEditor(c, current, state, 400)
  }
  // published, or sent back, by someone else meanwhile: nothing to send back
  if (current.review_at === null) {
    state.issues.form = 'desk_review.errors.not_waiting'
    return renderEditor(c, current, state, 409)
  }
  const note = parsed.output.note
  try {
    await saveItem(
      c.env.DB,
      staffOf(c),
      { ...current, version: parsed.output.version, review_at: null, review_note: note },
      { texts: [], action: 'review_return', live: false, detail: { note } },
    )
    return c.redirect(
      `/desk/content/${current.kind}/${current.id}?tab=${tab}&done=review_return`,
      303,
    )
  } catch (err) {
    if (!isStaleSave(err)) throw err
    const newest = await findItem(c.env.DB, current.kind, current.id)
    state.issues.form = 'stale'
    state.staleBy = newest ? { by: newest.updated_by, at: newest.updated_at } : undefined
    return renderEditor(c, newest ?? current, state, 409)
  }
})

const SizesForm = v.object({ back: v.optional(v.pipe(v.string(), v.maxLength(300))) })

/** "Try again" beside a picture whose sizes failed: its job queued anew, back to the editor. */
deskContent.post('/media/:name/sizes', sameSiteOnly(), limitBody(4096), async (c) => {
  const name = c.req.param('name')
  const back = (await readForm(c, SizesForm))?.back ?? ''
  if (!MEDIA_NAME.test(name) || !(await findMedia(c.env.DB, name))) return c.notFound()
  await queueSizes(c.env, name)
  return c.redirect(back.startsWith('/desk/content/') ? back : '/desk/content', 303)
})

/**
 * A picture uploaded on its own (the Markdown toolbar's "Insert picture"): stored as a cover is,
 * answered with its name and size, or the field's message in the staff member's language.
 */
deskContent.post('/media', sameSiteOnly(), limitBody(MEDIA_MAX_BYTES + 64 * 1024), async (c) => {
  const t = c.var.t
  const body = await c.req.parseBody().catch(() => null)
  const file = body?.picture
  if (!(file instanceof File) || file.size === 0)
    return c.json({ error: t('desk.content.errors.media_type') }, 400)
  const stored = await storeMedia(c.env, file, staffOf(c).email)
  if (!stored.ok)
    return c.json(
      { error: t(`desk.content.errors.${stored.error}`) },
      stored.error === 'media_service' ? 503 : 400,
    )
  return c.json({ media: stored.media }, 201)
})

const Preview = v.object({ body: v.pipe(v.string(), v.maxLength(100_000)) })

/** The live preview: the article's Markdown made into HTML as its page will show it. */
deskContent.post('/preview', sameSiteOnly(), limitBody(256 * 1024), async (c) => {
  const parsed = v.safeParse(Preview, await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: c.var.t('errors.invalid') }, 400)
  const body = parsed.output.body
  const pictures = await findMediaNamed(c.env.DB, mediaNamesIn(body))
  const { renderMarkdown } = await markdown()
  return c.json({ html: renderMarkdown(body, pictures).html })
})
