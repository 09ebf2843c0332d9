import { Hono, type Context } from 'hono'
import { imageSize } from 'image-size'
import { sha256Hex } from '../hash'
import type { AppEnv } from '../env'
import {
  CARD_HEIGHT,
  CARD_WIDTH,
  sizeName,
  type MediaPicture,
} from '../../client/lib/media-picture'
import { FIRST_SIZE, firstWidth, widthsFor } from './media-sizes'
import { sendSizesJob } from './media-sizes-job'
import { encode, IMMUTABLE } from './picture-encode'
import { PICTURE_TYPES, readPicture, type PictureRefusal } from './picture-bytes'

/**
 * The desk's pictures (covers, pictures in articles). Each is checked on its bytes
 * (picture-bytes.ts), then made, at upload, through the Images binding into what the site
 * serves: the picture itself re-encoded (turned upright, its EXIF, XMP and GPS data gone) and
 * its first size (media-sizes.ts: a WebP near 1280 pixels wide, which a phone can use); its
 * other widths in AVIF and WebP are made just after the answer (media-sizes-job.ts). All
 * are stored in R2 under names made of the uploaded bytes' hash and served from /media/<name> as
 * immutable, with the width and height a page gives them so nothing shifts as they load (the
 * `media` table). The bytes as uploaded are kept nowhere.
 */

/** The largest picture the desk takes. */
export const MEDIA_MAX_BYTES = 4 * 1024 * 1024

/** `media_service`: the image service refused, not the picture (its monthly limit, an outage). */
export type MediaRefusal = PictureRefusal | 'media_size' | 'media_service'

/**
 * Checks a picture and stores what is served of it (the same bytes twice are one picture), then
 * queues its sizes. A refused or failed upload leaves nothing in R2 or D1.
 */
export async function storeMedia(
  env: AppEnv['Bindings'],
  file: File,
  by: string,
): Promise<{ ok: true; media: MediaPicture } | { ok: false; error: MediaRefusal }> {
  if (file.size > MEDIA_MAX_BYTES) return { ok: false, error: 'media_size' }
  const bytes = new Uint8Array(await file.arrayBuffer())
  const read = readPicture(bytes)
  if (!read.ok) return read
  const { format, orientation } = read.picture
  const name = `${(await sha256Hex(bytes)).slice(0, 32)}.${format}`
  // a picture stored before sizes were made is made again, its served file replaced by a clean one
  const known = await findMedia(env.DB, name)
  if (known?.widths) return { ok: true, media: known }

  const turned = orientation >= 5
  const type = PICTURE_TYPES[format]
  let served: Uint8Array
  let media: MediaPicture
  let first: { name: string; bytes: Uint8Array }
  try {
    const upright = await uprightSteps(env.IMAGES, orientation)
    served = await encode(env.IMAGES, bytes, upright, {
      format: type as ImageOutputOptions['format'],
    })
    // the size as served (upright), read from what was made
    const size = imageSize(served)
    const width = size.width ?? (turned ? read.picture.height : read.picture.width)
    // the sizes it will have: one made now, the others just after this answer
    const widths = widthsFor(width)
    media = {
      name,
      width,
      height: size.height ?? (turned ? read.picture.width : read.picture.height),
      widths,
    }
    // the size a phone can use, served for every width until the others are made; made as the
    // queue's job makes it, which then keeps it
    const w = firstWidth(widths)
    const { format: f } = FIRST_SIZE
    first = {
      name: sizeName(name, w, f.ext),
      bytes: await encode(env.IMAGES, served, [{ width: w }], {
        format: f.type,
        quality: f.quality,
      }),
    }
  } catch (err) {
    // the header read well: the picture does not decode, or the service refused (Images' free
    // plan stops at 5,000 transformations a month with code 9422), which the staff member must
    // not read as "not a picture": a picture known to be good tells the two apart
    console.error('media: the Images binding refused', err)
    const service =
      (err as Partial<ImagesError>)?.code === 9422 || !(await serviceWorks(env.IMAGES))
    return { ok: false, error: service ? 'media_service' : 'media_type' }
  }
  const added: string[] = []
  try {
    await env.MEDIA.put(first.name, first.bytes, {
      httpMetadata: { contentType: FIRST_SIZE.format.type, cacheControl: IMMUTABLE },
    })
    added.push(first.name)
    await env.MEDIA.put(name, served, {
      httpMetadata: { contentType: type, cacheControl: IMMUTABLE },
      // the sizes its first size stands in for until they are made (servedUntilMade)
      customMetadata: { widths: media.widths!.join(',') },
    })
    // a picture stored before keeps its file
    if (!known) added.push(name)
    await env.DB.prepare(
      `INSERT INTO media (name, type, width, height, bytes, uploaded_by, widths, sizes_state,
       sizes_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
       ON CONFLICT (name) DO UPDATE SET width = excluded.width, height = excluded.height,
       bytes = excluded.bytes, widths = excluded.widths, sizes_state = 'pending',
       sizes_error = NULL, sizes_at = excluded.sizes_at`,
    )
      .bind(
        name,
        type,
        media.width,
        media.height,
        served.byteLength,
        by,
        JSON.stringify(media.widths),
      )
      .run()
  } catch (err) {
    // what this upload added goes
    if (added.length) await env.MEDIA.delete(added)
    throw err
  }
  await sendSizesJob(env, name)
  return { ok: true, media }
}

/** A social card drawn by the editor's browser (decision 007), at most this large. */
export const CARD_MAX_BYTES = 400 * 1024

/**
 * Stores an article's social card as it came (a canvas's JPEG has no metadata to strip), under
 * its hash; null when it is not a 1200×630 JPEG. Cards are not pictures to choose from: no row.
 */
export async function storeCard(env: AppEnv['Bindings'], file: File) {
  if (file.size > CARD_MAX_BYTES) return null
  const bytes = new Uint8Array(await file.arrayBuffer())
  const read = readPicture(bytes)
  if (!read.ok || read.picture.format !== 'jpg') return null
  if (read.picture.width !== CARD_WIDTH || read.picture.height !== CARD_HEIGHT) return null
  const name = `${(await sha256Hex(bytes)).slice(0, 32)}.jpg`
  await env.MEDIA.put(name, bytes, {
    httpMetadata: { contentType: 'image/jpeg', cacheControl: IMMUTABLE },
  })
  return name
}

/**
 * A 2×1 JPEG whose EXIF says "turn 90° clockwise to show" (orientation 6), and nothing else.
 * The edge's Images binding turns photos upright by their EXIF orientation; Miniflare's (sharp,
 * locally) does not. Which one this is, is asked once per isolate with this photo.
 */
const SIDEWAYS_PROBE =
  '/9j/4QAiRXhpZgAASUkqAAgAAAABABIBAwABAAAABgAAAAAAAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAABAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKAA/9k='

const probe = (images: ImagesBinding) =>
  encode(
    images,
    Uint8Array.from(atob(SIDEWAYS_PROBE), (c) => c.charCodeAt(0)),
    [],
    {
      format: 'image/png',
    },
  )

/** Whether the binding makes a picture at all, asked anew. */
const serviceWorks = (images: ImagesBinding) =>
  probe(images).then(
    () => true,
    () => false,
  )

let bindingOrients: Promise<boolean> | undefined

function orientsItself(images: ImagesBinding) {
  bindingOrients ??= probe(images)
    .then((png) => imageSize(png).height === 2)
    .catch((err) => {
      bindingOrients = undefined
      throw err
    })
  return bindingOrients
}

/**
 * EXIF orientation → what turns the picture upright (a mirror first, then a clockwise turn),
 * when the binding does not do it itself. Phones write 1, 3, 6 and 8.
 */
const TURNS: Record<number, ImageTransform[]> = {
  2: [{ flip: 'h' }],
  3: [{ rotate: 180 }],
  4: [{ flip: 'v' }],
  5: [{ flip: 'h' }, { rotate: 270 }],
  6: [{ rotate: 90 }],
  7: [{ flip: 'h' }, { rotate: 90 }],
  8: [{ rotate: 270 }],
}

async function uprightSteps(images: ImagesBinding, orientation: number) {
  const steps = TURNS[orientation]
  if (!steps || (await orientsItself(images))) return []
  return steps
}

export const findMedia = async (db: D1Database, name: string) =>
  mediaOf(await db.prepare(`SELECT ${COLUMNS} FROM media WHERE name = ?`).bind(name).first<Row>())

/** Rows of the pictures of these names (those that exist) that match `where`. */
async function rowsNamed<T>(db: D1Database, columns: string, names: string[], where = '') {
  // D1 binds at most 100 values a query; an article shows far fewer pictures
  names = [...new Set(names)].slice(0, 90)
  if (!names.length) return []
  const { results } = await db
    .prepare(
      `SELECT ${columns} FROM media WHERE ${where} name IN (${names.map(() => '?').join(',')})`,
    )
    .bind(...names)
    .all<T>()
  return results
}

/** The stored pictures of these names (those that exist), by name. */
export async function findMediaNamed(db: D1Database, names: string[]) {
  const found = new Map<string, MediaPicture>()
  for (const row of await rowsNamed<Row>(db, COLUMNS, names)) found.set(row.name, mediaOf(row)!)
  return found
}

/** Where a picture's sizes stand (media-sizes-job.ts), as the desk shows it. */
export type SizesState = { name: string; state: 'pending' | 'failed'; error: string | null }

/** The pictures among `names` whose sizes are not all made, for the editor's notice. */
export const unfinishedSizes = (db: D1Database, names: string[]) =>
  rowsNamed<SizesState>(
    db,
    'name, sizes_state AS state, sizes_error AS error',
    names,
    `sizes_state != 'done' AND`,
  )

export async function listMedia(db: D1Database, limit = 60) {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM media ORDER BY created_at DESC LIMIT ?`)
    .bind(limit)
    .all<Row>()
  return results.map((r) => mediaOf(r)!)
}

const COLUMNS = 'name, width, height, widths'
type Row = { name: string; width: number; height: number; widths: string | null }
const mediaOf = (row: Row | null): MediaPicture | null =>
  row && {
    name: row.name,
    width: row.width,
    height: row.height,
    ...(row.widths ? { widths: JSON.parse(row.widths) as number[] } : {}),
  }

/** A picture's name as uploaded (`<hash>.<ext>`) or one of its sizes (`<hash>-<width>.<ext>`). */
export const MEDIA_NAME = /^[0-9a-f]{32}(?:\.(?:jpg|png|webp)|-\d{1,4}\.(?:avif|webp))$/

/** GET /media/<name>: the stored file, kept by browsers and the edge for a year (its name is its content). */
export const media = new Hono<AppEnv>()

media.get('/:name', async (c) => {
  const name = c.req.param('name')
  if (!MEDIA_NAME.test(name)) return c.notFound()
  const file = await c.env.MEDIA.get(name)
  if (!file) return servedUntilMade(c, name)
  return fileAnswer(c, file, { 'Cache-Control': IMMUTABLE, ETag: file.httpEtag })
})

const fileAnswer = (c: Context<AppEnv>, file: R2ObjectBody, headers: Record<string, string>) =>
  c.body(file.body, 200, {
    'Content-Type': file.httpMetadata?.contentType ?? 'application/octet-stream',
    'Content-Length': String(file.size),
    ...headers,
  })

/**
 * A size not made yet (its job runs just after the upload): the first size, made with the upload
 * (FIRST_SIZE), kept a minute only, so a page's srcset shows a picture a phone can use meanwhile
 * and its size once made; never the picture itself, but for one stored before first sizes were
 * made (nothing else to show).
 */
async function servedUntilMade(c: Context<AppEnv>, size: string) {
  const [, hash, width] = /^([0-9a-f]{32})-(\d{1,4})\.(?:avif|webp)$/.exec(size) ?? []
  if (!hash || !width) return c.notFound()
  for (const ext of ['jpg', 'png', 'webp']) {
    const picture = await c.env.MEDIA.head(`${hash}.${ext}`)
    if (!picture) continue
    // only for a size it will have
    const widths = picture.customMetadata?.widths?.split(',').map(Number) ?? []
    if (!widths.includes(Number(width))) return c.notFound()
    const file =
      (await c.env.MEDIA.get(sizeName(hash, firstWidth(widths), FIRST_SIZE.format.ext))) ??
      (await c.env.MEDIA.get(picture.key))
    if (!file) return c.notFound()
    return fileAnswer(c, file, { 'Cache-Control': 'public, max-age=60' })
  }
  return c.notFound()
}
