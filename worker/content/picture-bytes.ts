import { imageSize } from 'image-size'

/**
 * What an uploaded picture's bytes say it is, read before anything decodes it: its type (never
 * its name's or the browser's word), its size from the header, its EXIF orientation, and whether
 * it moves. A browser cannot show HEIC; a picture larger than MAX_SIDE on a side takes more
 * memory to decode than a picture on a web page is worth (a "decompression bomb" is a small file
 * claiming a huge size); an animation would be flattened to its first frame by the resizer.
 */

export type PictureFormat = 'jpg' | 'png' | 'webp'

export const PICTURE_TYPES: Record<PictureFormat, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
}

/** The longest side the desk takes, in pixels. */
export const MAX_SIDE = 8000

export type PictureRefusal = 'media_type' | 'media_heic' | 'media_dimensions' | 'media_animated'

export interface PictureHeader {
  format: PictureFormat
  width: number
  height: number
  /** EXIF orientation (1–8; 1 = as stored). */
  orientation: number
}

export function readPicture(
  bytes: Uint8Array,
): { ok: true; picture: PictureHeader } | { ok: false; error: PictureRefusal } {
  let size: ReturnType<typeof imageSize>
  try {
    size = imageSize(bytes)
  } catch {
    return { ok: false, error: 'media_type' }
  }
  if (size.type === 'heif' || size.type === 'heic') return { ok: false, error: 'media_heic' }
  const format = size.type as PictureFormat | undefined
  if (!format || !(format in PICTURE_TYPES) || !size.width || !size.height)
    return { ok: false, error: 'media_type' }
  if (size.width > MAX_SIDE || size.height > MAX_SIDE)
    return { ok: false, error: 'media_dimensions' }
  if (format === 'png' ? pngAnimated(bytes) : format === 'webp' && webpAnimated(bytes))
    return { ok: false, error: 'media_animated' }
  const orientation = format === 'jpg' && size.orientation ? size.orientation : 1
  return { ok: true, picture: { format, width: size.width, height: size.height, orientation } }
}

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4))

/** An APNG: an `acTL` chunk before the first image data (PNG chunks: length, type, data, CRC). */
function pngAnimated(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let at = 8; at + 8 <= bytes.length;) {
    const type = ascii(bytes, at + 4)
    if (type === 'acTL') return true
    if (type === 'IDAT' || type === 'IEND') return false
    at += 12 + view.getUint32(at)
  }
  return false
}

/** An animated WebP: the VP8X header's animation flag, or an ANIM/ANMF chunk (RIFF chunks). */
function webpAnimated(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let at = 12; at + 8 <= bytes.length;) {
    const type = ascii(bytes, at)
    if (type === 'VP8X' && (bytes[at + 8]! & 0x02) !== 0) return true
    if (type === 'ANIM' || type === 'ANMF') return true
    const length = view.getUint32(at + 4, true)
    at += 8 + length + (length & 1)
  }
  return false
}
