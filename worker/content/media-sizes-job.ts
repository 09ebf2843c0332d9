import { sizeName } from '../../client/lib/media-picture'
import type { Bindings } from '../bindings'
import { SIZE_FORMATS } from './media-sizes'
import { encode, IMMUTABLE } from './picture-encode'

/**
 * A desk picture's smaller sizes, made after its upload has been answered: a phone's photo took
 * 29 s to save when its twelve encodes (six widths, AVIF and WebP) came before the answer. The
 * upload stores the picture itself (upright, its metadata gone), its first size (FIRST_SIZE,
 * which this job then keeps) and the widths it will have, and queues this job; until every size
 * exists, a size's URL serves that first size (content/media.ts), so a page's srcset is never
 * broken and no reader downloads the picture itself. A size that fails is tried again with
 * growing delays; after the last attempt the picture is marked failed and the desk says so,
 * with a button that asks again. The five-minute cron asks again for a job that was lost.
 */

/** The queue of size jobs (wrangler.toml). */
export const MEDIA_QUEUE = 'growth-agency-media'

/** The queue message: the picture whose sizes to make. */
export interface MediaJob {
  sizes: string
}

/** Attempts before a picture's sizes are marked failed (wrangler.toml's max_retries + 1). */
export const SIZE_ATTEMPTS = 5

/** A pending picture not done this long after it was queued is queued again (its job was lost). */
const LOST_AFTER_MINUTES = 10

/** Makes the sizes the picture lacks (those already made are kept), then marks it done. */
export async function makeSizes(env: Bindings, name: string) {
  const row = await env.DB.prepare(`SELECT widths, sizes_state FROM media WHERE name = ?`)
    .bind(name)
    .first<{ widths: string | null; sizes_state: string }>()
  if (!row || row.sizes_state === 'done') return
  const picture = await env.MEDIA.get(name)
  if (!picture) throw new Error(`the picture ${name} is not in the bucket`)
  const bytes = new Uint8Array(await picture.arrayBuffer())
  for (const width of JSON.parse(row.widths ?? '[]') as number[])
    for (const f of SIZE_FORMATS) {
      const key = sizeName(name, width, f.ext)
      if (await env.MEDIA.head(key)) continue
      // from the stored picture, already upright and clean
      const out = await encode(env.IMAGES, bytes, [{ width }], {
        format: f.type,
        quality: f.quality,
      })
      await env.MEDIA.put(key, out, {
        httpMetadata: { contentType: f.type, cacheControl: IMMUTABLE },
      })
    }
  await env.DB.prepare(`UPDATE media SET sizes_state = 'done', sizes_error = NULL WHERE name = ?`)
    .bind(name)
    .run()
}

export async function consumeMedia(batch: MessageBatch<MediaJob>, env: Bindings) {
  for (const message of batch.messages) {
    const name = message.body.sizes
    try {
      await makeSizes(env, name)
      message.ack()
    } catch (err) {
      const last = message.attempts >= SIZE_ATTEMPTS
      console.error(`media: sizes of ${name} failed (attempt ${message.attempts})`, err)
      const error = (err instanceof Error ? err.message : String(err)).slice(0, 300)
      await env.DB.prepare(`UPDATE media SET sizes_state = ?, sizes_error = ? WHERE name = ?`)
        .bind(last ? 'failed' : 'pending', error, name)
        .run()
        .catch(() => {})
      if (last) message.ack()
      else message.retry({ delaySeconds: 15 * 2 ** (message.attempts - 1) })
    }
  }
}

/**
 * Puts the job of a picture marked pending on the queue. A queue that does not take it loses
 * nothing: the picture stays pending and the cron asks again.
 */
export const sendSizesJob = (env: Bindings, name: string) =>
  env.MEDIA_QUEUE.send({ sizes: name } satisfies MediaJob).catch((err: unknown) =>
    console.error(`media: the sizes of ${name} were not queued (the cron asks again)`, err),
  )

/** Marks a picture's sizes pending again (the desk's retry, the cron's catch-up) and queues them. */
export async function queueSizes(env: Bindings, name: string) {
  await env.DB.prepare(
    `UPDATE media SET sizes_state = 'pending', sizes_error = NULL,
     sizes_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE name = ?`,
  )
    .bind(name)
    .run()
  await sendSizesJob(env, name)
}

/** The cron's catch-up: pictures left pending by a lost job. */
export async function queueLostSizes(env: Bindings) {
  const { results } = await env.DB.prepare(
    `SELECT name FROM media WHERE sizes_state = 'pending'
     AND (sizes_at IS NULL OR sizes_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?)) LIMIT 20`,
  )
    .bind(`-${LOST_AFTER_MINUTES} minutes`)
    .all<{ name: string }>()
  for (const { name } of results) await queueSizes(env, name)
  return results.length
}
