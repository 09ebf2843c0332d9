import { Hono } from 'hono'
import { imageSize } from 'image-size'
import { sha256Hex } from '../hash'
import type { AppEnv } from '../env'

/**
 * The desk's pictures (covers, pictures in articles): checked on their bytes, stored in R2 under
 * a name made of their content's hash, and served from /media/<name> as immutable, with the
 * width and height a page gives them so nothing shifts as they load (the `media` table).
 */

/** The largest picture the desk takes. */
export const MEDIA_MAX_BYTES = 4 * 1024 * 1024

/** What image-size reads in the bytes, to the file's extension and type. */
const TYPES: Record<string, { ext: string; type: string }> = {
  jpg: { ext: 'jpg', type: 'image/jpeg' },
  png: { ext: 'png', type: 'image/png' },
  webp: { ext: 'webp', type: 'image/webp' },
}

export interface StoredMedia {
  name: string
  width: number
  height: number
}

export type MediaRefusal = 'media_type' | 'media_size'

/**
 * Checks a picture and stores it (the same bytes twice are one file). The type is read from
 * the bytes by image-size, never from the name or the browser's word.
 */
export async function storeMedia(
  env: AppEnv['Bindings'],
  file: File,
  by: string,
): Promise<{ ok: true; media: StoredMedia } | { ok: false; error: MediaRefusal }> {
  if (file.size > MEDIA_MAX_BYTES) return { ok: false, error: 'media_size' }
  const bytes = new Uint8Array(await file.arrayBuffer())
  let size: ReturnType<typeof imageSize>
  try {
    size = imageSize(bytes)
  } catch {
    return { ok: false, error: 'media_type' }
  }
  const kind = size.type ? TYPES[size.type] : undefined
  if (!kind || !size.width || !size.height) return { ok: false, error: 'media_type' }
  const name = `${(await sha256Hex(bytes)).slice(0, 32)}.${kind.ext}`
  await env.MEDIA.put(name, bytes, { httpMetadata: { contentType: kind.type } })
  await env.DB.prepare(
    `INSERT INTO media (name, type, width, height, bytes, uploaded_by) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (name) DO NOTHING`,
  )
    .bind(name, kind.type, size.width, size.height, bytes.byteLength, by)
    .run()
  return { ok: true, media: { name, width: size.width, height: size.height } }
}

export const findMedia = (db: D1Database, name: string) =>
  db.prepare('SELECT name, width, height FROM media WHERE name = ?').bind(name).first<StoredMedia>()

export async function listMedia(db: D1Database, limit = 60) {
  const { results } = await db
    .prepare('SELECT name, width, height FROM media ORDER BY created_at DESC LIMIT ?')
    .bind(limit)
    .all<StoredMedia>()
  return results
}

const NAME = /^[0-9a-f]{32}\.(jpg|png|webp)$/

/** GET /media/<name>: the stored file, kept by browsers and the edge for a year (its name is its content). */
export const media = new Hono<AppEnv>()

media.get('/:name', async (c) => {
  const name = c.req.param('name')
  if (!NAME.test(name)) return c.notFound()
  const file = await c.env.MEDIA.get(name)
  if (!file) return c.notFound()
  return c.body(file.body, 200, {
    'Content-Type': file.httpMetadata?.contentType ?? 'application/octet-stream',
    'Content-Length': String(file.size),
    'Cache-Control': 'public, max-age=31536000, immutable',
    ETag: file.httpEtag,
  })
})
