import { LANGS, type Lang } from '../../client/lib/languages'
import { liveItemsQuery, readGenerations, readLive, type LiveItem } from '../db/content'
import { CONTENT_KINDS, type ContentKind } from '../db/content-kinds'
import type { Context } from 'hono'
import type { Bindings } from '../bindings'
import type { AppEnv } from '../env'

/**
 * The published content outside D1 (docs/decisions/006-pages-without-d1.md): each kind's live
 * items in every language, one R2 object per kind, written after every change to a live item
 * (and by the cron, for any kind whose snapshot is missing or behind its generation). No request
 * reads it while D1 answers; when D1 fails, the public pages read their content from it.
 */

const PREFIX = 'content-snapshot/'
const keyOf = (kind: ContentKind) => `${PREFIX}${kind}.json`

export interface Snapshot {
  kind: ContentKind
  /** The kind's cache generation when it was written (content/generations.ts). */
  generation: number
  writtenAt: string
  /** Each language's live items, in page order, an article's HTML included. */
  items: Partial<Record<Lang, LiveItem[]>>
}

/** Reads a kind's live items in every language from D1 and stores them in R2. */
export async function writeSnapshot(env: Bindings, kind: ContentKind) {
  const db = env.DB
  const [generations, lists] = await Promise.all([
    readGenerations(db),
    readLive(
      db,
      LANGS.map((lang) => liveItemsQuery(db, kind, lang)),
    ),
  ])
  const snapshot: Snapshot = {
    kind,
    generation: generations[kind] ?? 0,
    writtenAt: new Date().toISOString(),
    items: Object.fromEntries(LANGS.map((lang, i) => [lang, lists[i]])),
  }
  await env.MEDIA.put(keyOf(kind), JSON.stringify(snapshot), {
    httpMetadata: { contentType: 'application/json' },
    customMetadata: { generation: String(snapshot.generation) },
  })
  read.delete(kind)
  return snapshot
}

/** The cron's check: every kind whose snapshot is missing or older than its generation is written. */
export async function refreshSnapshots(env: Bindings) {
  const generations = await readGenerations(env.DB)
  const written: ContentKind[] = []
  for (const kind of CONTENT_KINDS) {
    const head = await env.MEDIA.head(keyOf(kind))
    if (head && Number(head.customMetadata?.generation) === (generations[kind] ?? 0)) continue
    await writeSnapshot(env, kind)
    written.push(kind)
  }
  return written
}

/** When this isolate may next see to the snapshots (ensureSnapshots); 0 before the first time. */
let nextCheck = 0
/** After a failed check, the wait before another: a failing R2 is not tried on every page. */
const RETRY_MS = 5 * 60_000

/**
 * Once per isolate, after D1 answered a page's read, in the background: the snapshots written
 * where missing or behind. A fresh deploy's content (seeded by migration, never saved in the
 * desk) then has its snapshot from the first page view, not from the first cron run.
 */
export function ensureSnapshots(c: Context<AppEnv>) {
  if (nextCheck === Infinity || Date.now() < nextCheck || !c.env.MEDIA) return
  nextCheck = Infinity
  const done = refreshSnapshots(c.env).catch((err) => {
    nextCheck = Date.now() + RETRY_MS
    console.error('content snapshots unwritten', err)
  })
  try {
    c.executionCtx.waitUntil(done)
  } catch {
    // no execution context (a render outside a request): the promise runs on its own
  }
}

/** Snapshots read lately, per isolate: an outage is not an R2 read per page. */
const KEEP_MS = 60_000
const read = new Map<ContentKind, { at: number; snapshot: Promise<Snapshot | null> }>()

/** A kind's snapshot, or null where none was ever written. */
export function readSnapshot(env: Bindings, kind: ContentKind): Promise<Snapshot | null> {
  const kept = read.get(kind)
  if (kept && Date.now() - kept.at < KEEP_MS) return kept.snapshot
  const snapshot = env.MEDIA.get(keyOf(kind)).then((object) =>
    object ? (object.json() as Promise<Snapshot>) : null,
  )
  // a failed read is not kept
  snapshot.catch(() => read.delete(kind))
  read.set(kind, { at: Date.now(), snapshot })
  return snapshot
}
