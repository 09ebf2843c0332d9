import type { ContentTag } from '../content/kinds'
import type { Lang } from '../../client/lib/languages'
import type { ContentKind, ContentStatus } from './content-kinds'
import { audit } from './desk'

/**
 * The content's reads and writes (migrations/0013_create_content.sql): what the public pages
 * show (published items in a language), what the desk lists and edits, and every save as a
 * revision, the audit log and the cache generations in the same batch.
 */

type Json = Record<string, unknown>

export interface ItemRow {
  id: number
  kind: ContentKind
  slug: string
  status: ContentStatus
  publish_at: string | null
  published_at: string | null
  position: number
  fields: Json
  version: number
  updated_at: string
  updated_by: string
  /** The account that created it; null for the agency's items from before (migration 0036). */
  author_id: string | null
  /** When its draft was sent for review; null when it is not waiting for review. */
  review_at: string | null
  /** The reviewer's note when they sent it back, until it is sent again. */
  review_note: string | null
}

export interface TextRow {
  lang: Lang
  fields: Json
  source_at: string | null
  updated_at: string
}

/** An item as a page shows it: its shared fields, its texts in one language, and its languages. */
export interface LiveItem<T = Json> {
  slug: string
  shared: Json
  texts: T
  /** The language of `texts` (English where the asked one is missing: an article's page). */
  lang: Lang
  /** Every language the item exists in. */
  langs: Lang[]
  published: string
  updatedAt: string
}

type RawItem = Omit<ItemRow, 'fields'> & { fields: string }
const item = (r: RawItem): ItemRow => ({ ...r, fields: JSON.parse(r.fields) as Json })

interface LiveRaw {
  slug: string
  shared: string
  texts: string
  html?: string | null
  lang: Lang
  langs: string
  published_at: string | null
  updated_at: string
}
const live = <T>(r: LiveRaw): LiveItem<T> => ({
  slug: r.slug,
  shared: JSON.parse(r.shared) as Json,
  texts: (r.html == null
    ? JSON.parse(r.texts)
    : { ...(JSON.parse(r.texts) as Json), html: r.html }) as T,
  lang: r.lang,
  langs: r.langs.split(',') as Lang[],
  published: r.published_at ?? r.updated_at,
  updatedAt: r.updated_at,
})

const LANGS_OF = `(SELECT group_concat(lang) FROM content_texts WHERE item_id = i.id) AS langs`

/**
 * The published items of a kind in a language, in their order (articles newest first). Items
 * without a text in this language are absent from it. `brief`: an article's HTML left out (the
 * lists never show it). A statement, so a page can send its reads in one batch (`readLive`).
 */
export function liveItemsQuery(
  db: D1Database,
  kind: ContentKind,
  lang: Lang,
  { brief = false } = {},
) {
  const texts = brief ? 't.fields AS texts' : 't.fields AS texts, t.html'
  const order = kind === 'article' ? 'i.published_at DESC, i.id DESC' : 'i.position, i.id'
  return db
    .prepare(
      `SELECT i.slug, i.fields AS shared, ${texts}, t.lang, ${LANGS_OF},
              i.published_at, i.updated_at
       FROM content_items i JOIN content_texts t ON t.item_id = i.id AND t.lang = ?
       WHERE i.kind = ? AND i.status = 'published'
       ORDER BY ${order}`,
    )
    .bind(lang, kind)
}

/** One published item in a language, or in English where it has no text in that one. */
export const liveItemQuery = (db: D1Database, kind: ContentKind, slug: string, lang: Lang) =>
  db
    .prepare(
      `SELECT i.slug, i.fields AS shared, t.fields AS texts, t.html, t.lang, ${LANGS_OF},
              i.published_at, i.updated_at
       FROM content_items i JOIN content_texts t ON t.item_id = i.id AND t.lang IN (?, 'en')
       WHERE i.kind = ? AND i.slug = ? AND i.status = 'published'
       ORDER BY t.lang = ? DESC LIMIT 1`,
    )
    .bind(lang, kind, slug, lang)

/** A page's reads of the content, in one round trip: each statement's items. */
export async function readLive(db: D1Database, statements: D1PreparedStatement[]) {
  const results = await db.batch<LiveRaw>(statements)
  return results.map((r) => r.results.map((row) => live(row)))
}

/** The published articles' addresses and languages (the sitemap). */
export async function liveArticleIndex(db: D1Database) {
  const { results } = await db
    .prepare(
      `SELECT i.slug, i.updated_at, ${LANGS_OF} FROM content_items i
       WHERE i.kind = 'article' AND i.status = 'published'
       ORDER BY i.published_at DESC, i.id DESC`,
    )
    .all<{ slug: string; updated_at: string; langs: string }>()
  return results.map((r) => ({ ...r, langs: r.langs.split(',') as Lang[] }))
}

// ---- the desk ----

export interface ListedItem {
  id: number
  slug: string
  status: ContentStatus
  publish_at: string | null
  updated_at: string
  updated_by: string
  review_at: string | null
  /** Sent back with a note (and not sent again yet). */
  returned: boolean
  /** The English text's first field (a title, a name, a question). */
  title: string
  /** Languages with a text, and those whose text is older than the English one. */
  langs: Lang[]
  stale: Lang[]
}

/** An item's title in the desk: its text's first field (a title, a name, a question), else its slug. */
export function itemTitle(texts: Json, slug: string) {
  const first = Object.values(texts)[0]
  return typeof first === 'string' ? first : slug
}

/**
 * The items of a kind for the desk's list; `author`: only that account's drafts (a Writer's
 * list, content-access.ts).
 */
export async function listItems(
  db: D1Database,
  kind: ContentKind,
  { author }: { author?: string } = {},
): Promise<ListedItem[]> {
  const own = author === undefined ? '' : `AND i.author_id = ? AND i.status = 'draft'`
  const { results } = await db
    .prepare(
      `SELECT i.id, i.slug, i.status, i.publish_at, i.updated_at, i.updated_by, i.review_at,
              i.review_note IS NOT NULL AS returned,
              (SELECT fields FROM content_texts WHERE item_id = i.id AND lang = 'en') AS en,
              (SELECT json_group_array(json_object('lang', t.lang, 'stale',
                  t.lang != 'en' AND t.source_at < e.updated_at))
               FROM content_texts t LEFT JOIN content_texts e ON e.item_id = t.item_id AND e.lang = 'en'
               WHERE t.item_id = i.id) AS texts
       FROM content_items i WHERE i.kind = ? ${own}
       ORDER BY ${kind === 'article' ? 'coalesce(i.published_at, i.updated_at) DESC' : 'i.position'}, i.id DESC`,
    )
    .bind(kind, ...(author === undefined ? [] : [author]))
    .all<
      Omit<ListedItem, 'title' | 'langs' | 'stale' | 'returned'> & {
        en: string | null
        texts: string
        returned: number
      }
    >()
  return results.map(({ en, texts, returned, ...r }) => {
    const langs = JSON.parse(texts) as { lang: Lang; stale: number }[]
    return {
      ...r,
      returned: returned === 1,
      title: en ? itemTitle(JSON.parse(en) as Json, r.slug) : '',
      langs: langs.map((l) => l.lang),
      stale: langs.filter((l) => l.stale).map((l) => l.lang),
    }
  })
}

/** A draft waiting for review: the queue's line. */
export interface QueuedItem {
  id: number
  kind: ContentKind
  title: string
  slug: string
  review_at: string
  /** Who sent it (the latest "Send for review"'s revision). */
  sent_by: string
}

/** The review queue: every draft sent for review, the longest waiting first (its own index). */
export async function reviewQueue(db: D1Database): Promise<QueuedItem[]> {
  const { results } = await db
    .prepare(
      `SELECT i.id, i.kind, i.slug, i.review_at,
              (SELECT fields FROM content_texts WHERE item_id = i.id AND lang = 'en') AS en,
              (SELECT author FROM content_revisions
               WHERE item_id = i.id AND action = 'review_submit' ORDER BY id DESC LIMIT 1) AS sent_by
       FROM content_items i WHERE i.review_at IS NOT NULL
       ORDER BY i.review_at, i.id LIMIT 200`,
    )
    .all<Omit<QueuedItem, 'title'> & { en: string | null }>()
  return results.map(({ en, ...r }) => ({
    ...r,
    sent_by: r.sent_by ?? '',
    title: en ? itemTitle(JSON.parse(en) as Json, r.slug) : r.slug,
  }))
}

export interface FullItem extends ItemRow {
  texts: Partial<Record<Lang, TextRow>>
}

export async function findItem(db: D1Database, kind: ContentKind, id: number) {
  const [items, texts] = await db.batch([
    db.prepare('SELECT * FROM content_items WHERE id = ? AND kind = ?').bind(id, kind),
    db
      .prepare(
        'SELECT lang, fields, body, html, source_at, updated_at FROM content_texts WHERE item_id = ?',
      )
      .bind(id),
  ])
  const row = (items.results as RawItem[])[0]
  if (!row) return null
  const full: FullItem = { ...item(row), texts: {} }
  type RawText = Omit<TextRow, 'fields'> & {
    fields: string
    body: string | null
    html: string | null
  }
  for (const { body, html, ...t } of texts.results as RawText[])
    full.texts[t.lang] = {
      ...t,
      fields: { ...(JSON.parse(t.fields) as Json), ...(body === null ? {} : { body, html }) },
    }
  return full
}

export const slugTaken = async (db: D1Database, kind: ContentKind, slug: string, id?: number) =>
  (await db
    .prepare('SELECT 1 FROM content_items WHERE kind = ? AND slug = ? AND id IS NOT ?')
    .bind(kind, slug, id ?? null)
    .first()) !== null

export interface RevisionRow {
  id: number
  version: number
  action: string
  author: string
  created_at: string
}

export async function revisions(db: D1Database, itemId: number) {
  const { results } = await db
    .prepare(
      `SELECT id, version, action, author, created_at FROM content_revisions
       WHERE item_id = ? ORDER BY id DESC LIMIT 50`,
    )
    .bind(itemId)
    .all<RevisionRow>()
  return results
}

export async function revisionSnapshot(db: D1Database, itemId: number, revisionId: number) {
  const row = await db
    .prepare('SELECT snapshot FROM content_revisions WHERE id = ? AND item_id = ?')
    .bind(revisionId, itemId)
    .first<{ snapshot: string }>()
  return row ? (JSON.parse(row.snapshot) as Snapshot) : null
}

/** What a revision keeps: the item after the save, every language's texts with it. */
export interface Snapshot {
  slug: string
  status: ContentStatus
  publish_at: string | null
  fields: Json
  texts: Partial<Record<Lang, { fields: Json; source_at: string | null; updated_at: string }>>
}

export const snapshotOf = (item: FullItem): Snapshot => ({
  slug: item.slug,
  status: item.status,
  publish_at: item.publish_at,
  fields: item.fields,
  texts: Object.fromEntries(
    Object.entries(item.texts).map(([lang, t]) => [
      lang,
      { fields: t.fields, source_at: t.source_at, updated_at: t.updated_at },
    ]),
  ),
})

/** The trigger's words when a save names a version that is no longer the newest. */
export const isStaleSave = (err: unknown) => String(err).includes('content: stale version')

/**
 * Raises a tag's generation: every cached copy of the pages that show it is no longer found
 * (content/generations.ts). In the change's own batch.
 */
export const bumpGeneration = (db: D1Database, tag: ContentTag, at: string) =>
  db
    .prepare(
      `INSERT INTO content_generations (tag, generation, changed_at) VALUES (?, 1, ?)
       ON CONFLICT (tag) DO UPDATE SET generation = generation + 1, changed_at = excluded.changed_at`,
    )
    .bind(tag, at)

export interface Staff {
  id: string
  email: string
}

/**
 * One save of an item: `next` is the whole item as it is to be (the item's row and the texts
 * that changed), `from` the version the editor started from. Writes the item (the trigger
 * refuses a stale version: the batch throws, isStaleSave), the changed texts, the revision,
 * the audit line and, when the item is or was live, its kind's cache generation. Returns the
 * new version.
 */
export async function saveItem(
  db: D1Database,
  staff: Staff,
  next: FullItem,
  changed: {
    texts: Lang[]
    removed?: Lang[]
    action: string
    live: boolean
    /** More for the audit line (a review's note). */
    detail?: Record<string, unknown>
    /**
     * Statements for the same batch, after the save's (a webhook event: `(SELECT id FROM
     * content_items WHERE kind = ? AND slug = ?)` reads the item's id); their results return.
     */
    also?: D1PreparedStatement[]
  },
  now = new Date().toISOString(),
): Promise<{ id: number; version: number; also: D1Result[] }> {
  const isNew = next.id === 0
  const version = isNew ? 1 : next.version + 1
  const statements: D1PreparedStatement[] = []
  if (isNew) {
    statements.push(
      db
        .prepare(
          `INSERT INTO content_items (kind, slug, status, publish_at, published_at, position,
             fields, version, updated_at, updated_by, author_id, review_at, review_note)
           VALUES (?, ?, ?, ?, ?, (SELECT coalesce(max(position), -1) + 1 FROM content_items WHERE kind = ?), ?, 1, ?, ?, ?, ?, ?)`,
        )
        .bind(
          next.kind,
          next.slug,
          next.status,
          next.publish_at,
          next.published_at,
          next.kind,
          JSON.stringify(next.fields),
          now,
          staff.email,
          // its author: whoever creates it
          staff.id,
          next.review_at,
          next.review_note,
        ),
    )
  } else {
    statements.push(
      db
        .prepare(
          `UPDATE content_items SET slug = ?, status = ?, publish_at = ?, published_at = ?,
             fields = ?, version = ?, updated_at = ?, updated_by = ?, review_at = ?,
             review_note = ? WHERE id = ?`,
        )
        .bind(
          next.slug,
          next.status,
          next.publish_at,
          next.published_at,
          JSON.stringify(next.fields),
          version,
          now,
          staff.email,
          next.review_at,
          next.review_note,
          next.id,
        ),
    )
  }
  // the new item's id, in the same batch
  const id = isNew ? '(SELECT id FROM content_items WHERE kind = ? AND slug = ?)' : '?'
  const idArgs = isNew ? [next.kind, next.slug] : [next.id]
  for (const lang of changed.texts) {
    const t = next.texts[lang]!
    // an article's Markdown and HTML in their own columns (the lists never read them)
    const { body = null, html = null, ...fields } = t.fields
    statements.push(
      db
        .prepare(
          `INSERT INTO content_texts (item_id, lang, fields, body, html, source_at, updated_at)
           VALUES (${id}, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (item_id, lang) DO UPDATE SET fields = excluded.fields,
             body = excluded.body, html = excluded.html,
             source_at = excluded.source_at, updated_at = excluded.updated_at`,
        )
        .bind(...idArgs, lang, JSON.stringify(fields), body, html, t.source_at, t.updated_at),
    )
  }
  for (const lang of changed.removed ?? [])
    statements.push(
      db
        .prepare(`DELETE FROM content_texts WHERE item_id = ${id} AND lang = ?`)
        .bind(...idArgs, lang),
    )
  statements.push(
    db
      .prepare(
        `INSERT INTO content_revisions (item_id, version, action, snapshot, author, created_at)
         VALUES (${id}, ?, ?, ?, ?, ?)`,
      )
      .bind(...idArgs, version, changed.action, JSON.stringify(snapshotOf(next)), staff.email, now),
  )
  statements.push(
    audit(db, staff, `content.${changed.action}`, `${next.kind}/${next.slug}`, {
      version,
      languages: changed.texts,
      ...changed.detail,
    }),
  )
  if (changed.live) statements.push(bumpGeneration(db, next.kind, now))
  const also = changed.also ?? []
  statements.push(...also)
  statements.push(db.prepare(`SELECT ${id} AS id`).bind(...idArgs))
  const results = await db.batch<{ id: number }>(statements)
  return {
    id: results.at(-1)!.results[0].id,
    version,
    also: results.slice(results.length - 1 - also.length, -1),
  }
}

/**
 * Scheduled items whose time has come go live (the cron, worker/scheduled.ts): each one's
 * status, a revision and an audit line, and the generations of the kinds that changed.
 * `also`: statements for each one's batch (its content.published webhook), their results
 * returned with it.
 */
export async function publishDue(
  db: D1Database,
  now = new Date().toISOString(),
  also?: (item: { id: number; kind: ContentKind; slug: string }) => D1PreparedStatement[],
) {
  const { results } = await db
    .prepare(`SELECT id, kind FROM content_items WHERE status = 'scheduled' AND publish_at <= ?`)
    .bind(now)
    .all<{ id: number; kind: ContentKind }>()
  const published: { kind: ContentKind; slug: string; also: D1Result[] }[] = []
  for (const { id, kind } of results) {
    const current = await findItem(db, kind, id)
    if (!current || current.status !== 'scheduled') continue
    try {
      const saved = await saveItem(
        db,
        { id: 'schedule', email: 'schedule' },
        {
          ...current,
          status: 'published',
          published_at: current.published_at ?? current.publish_at,
        },
        {
          texts: [],
          action: 'publish',
          live: true,
          also: also?.({ id, kind, slug: current.slug }),
        },
        now,
      )
      published.push({ kind, slug: current.slug, also: saved.also })
    } catch (err) {
      // someone saved it meanwhile: the next run looks again
      if (!isStaleSave(err)) throw err
    }
  }
  return published
}

/** Each tag's generation (content/generations.ts). */
export async function readGenerations(db: D1Database | D1DatabaseSession) {
  const { results } = await db
    .prepare('SELECT tag, generation FROM content_generations')
    .all<{ tag: string; generation: number }>()
  return Object.fromEntries(results.map((r) => [r.tag, r.generation]))
}
