import { readGenerations } from '../db/content'
import { noteDatabaseAnswer, noteDatabaseFailure } from '../db/outage'
import type { ContentTag } from './kinds'

/**
 * Purging by tag, everywhere at once. A page that shows content (routes.ts: `shows`) is kept by
 * the edge under the generations of the kinds it shows; a change to a live item raises its
 * kind's generation in D1 (db/content.ts, in the save's own batch), so every copy of every page
 * that shows it, in every language and every data centre, is no longer found: the next visitor
 * gets a fresh render. No purge API, no list of keys to remember.
 *
 * Each isolate reads the generations at most every REREAD_MS (on the first request after), so
 * another isolate sees a change within that and D1's replica lag: seconds. The isolate that made
 * the change knows at once (`afterChange`). The read's D1 bookmark is kept, and the request that
 * renders the page reads its content no older than it (middleware/d1-session.ts): a copy kept
 * under a new generation is never rendered from a replica that has not seen the change.
 */

/** How long an isolate trusts the generations it read. */
export const REREAD_MS = 10_000

interface Known {
  generations: Record<string, number>
  readAt: number
  bookmark: string | null
}
let known: Known | undefined

const newer = (a: string | null, b: string | null) => (a && b ? (a > b ? a : b) : (a ?? b))

function merge(read: Record<string, number>, bookmark: string | null, readAt: number) {
  const generations = { ...known?.generations }
  // generations only rise: a lagging replica's read never takes one back
  for (const [tag, n] of Object.entries(read)) generations[tag] = Math.max(generations[tag] ?? 0, n)
  known = { generations, readAt, bookmark: newer(known?.bookmark ?? null, bookmark) }
}

/**
 * The generations, read again when older than REREAD_MS. `afterChange`: read now, from the
 * primary, right after this isolate changed content (the change and its bookmark known at once).
 */
export async function currentGenerations(db: D1Database, { afterChange = false } = {}) {
  if (!afterChange && known && Date.now() - known.readAt < REREAD_MS) return known.generations
  try {
    const session = db.withSession(
      afterChange ? 'first-primary' : (known?.bookmark ?? 'first-unconstrained'),
    )
    merge(await readGenerations(session), session.getBookmark(), Date.now())
    noteDatabaseAnswer()
  } catch (err) {
    // D1 not answering: the generations last read stand, and the edge serves its copies
    // (render/edge-cache.ts); none read yet (or no table: an unmigrated database), generation 0
    noteDatabaseFailure()
    console.error('content generations unread', err)
    merge({}, null, Date.now())
  }
  return known!.generations
}

/** The generations if read lately (the isolate's memory answers before any await). */
export const freshGenerations = () =>
  known && Date.now() - known.readAt < REREAD_MS ? known.generations : undefined

/** The newest D1 bookmark the generations were read at, for the page's own reads. */
export const generationsBookmark = () => known?.bookmark ?? null

/** The part of a cache key naming the generations of what the page shows. */
export const generationKey = (generations: Record<string, number>, tags: readonly ContentTag[]) =>
  tags.map((tag) => `${tag}.${generations[tag] ?? 0}`).join('-')
