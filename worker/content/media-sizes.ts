import { sizeName, type MediaPicture } from '../../client/lib/media-picture'

/**
 * The sizes made of every desk picture at upload (content/media.ts) and how a page offers them
 * (`srcset`, read by the picture component and the article's Markdown alike). Widths step by
 * about a quarter: a phone of Lighthouse's (412 px at 1.75×) showing a picture across its
 * screen wants 665 pixels and gets 800, not 960.
 */

export const MEDIA_WIDTHS = [480, 640, 800, 960, 1280, 1600] as const

/** The formats of the sizes, best first (a `<picture>` offers them in this order). */
export const SIZE_FORMATS = [
  { ext: 'avif', type: 'image/avif', quality: 60 },
  { ext: 'webp', type: 'image/webp', quality: 80 },
] as const

/** The widths of a picture `width` pixels wide: the usual ones, none wider than it. */
export const widthsFor = (width: number) => [
  ...new Set(MEDIA_WIDTHS.map((w) => Math.min(w, width))),
]

/**
 * The one size made before an upload is answered (content/media.ts): the WebP of the widest of
 * its widths up to 1280 pixels. Until the queue's job has made the others, every size's URL
 * serves it, so no reader downloads the picture itself: a 390 px phone at 3× wants about 1080
 * pixels. Measured on this machine (two cores, busy) with 2.4–2.7 MB 4032×3024 phone photos,
 * through the binding: its WebP takes 0.5–0.7 s and weighs 186–245 KB; an AVIF 7–15 s; a JPEG
 * 0.2–0.3 s (170–285 KB), but it would lose a PNG's transparency (black here) and be a 14th
 * transformation and a file no page names, where the WebP is a size the job makes anyway.
 */
export const FIRST_SIZE = { widest: 1280, format: SIZE_FORMATS[1] } as const

export const firstWidth = (widths: readonly number[]) =>
  widths.filter((w) => w <= FIRST_SIZE.widest).at(-1) ?? widths[0]!

/** Where a page's CSS puts a picture, as `sizes` says it (the layouts of pages/*.tsx). */
export const PICTURE_SIZES = {
  /** The article's column (max-w-3xl in the container): its cover and its body's pictures. */
  article: '(min-width: 820px) 768px, calc(100vw - 2rem)',
  /** A card of the blog's grid (three columns on a desktop, two on a tablet). */
  card: '(min-width: 1024px) 304px, (min-width: 768px) calc(50vw - 84px), calc(100vw - 80px)',
  /** A case of the portfolio (two columns on a desktop). */
  case: '(min-width: 1024px) 488px, calc(100vw - 80px)',
} as const

/**
 * The one size offered where no `srcset` is read (an `<img>`'s `src`, a feed's picture): the
 * widest up to 960 pixels, else the narrowest.
 */
export const plainWidth = (widths: readonly number[]) =>
  [...widths].reverse().find((w) => w <= 960) ?? widths[0]!

/**
 * What a `<picture>` of it says: a `srcset` per format and the `<img>`'s own `src` (the WebP
 * nearest 960 pixels, for a browser that reads no `srcset`); null for a picture without sizes.
 */
export function pictureSources(p: MediaPicture) {
  if (!p.widths?.length) return null
  const srcset = (ext: string) =>
    p.widths!.map((w) => `/media/${sizeName(p.name, w, ext)} ${w}w`).join(', ')
  return {
    avif: srcset('avif'),
    webp: srcset('webp'),
    src: `/media/${sizeName(p.name, plainWidth(p.widths), 'webp')}`,
  }
}

/** The pictures of the store a Markdown text shows (`![…](/media/<name>)`), by name. */
export const mediaNamesIn = (markdown: string) => [
  ...new Set(
    Array.from(markdown.matchAll(/\/media\/([0-9a-f]{32}\.(?:jpg|png|webp))/g), (m) => m[1]!),
  ),
]
