/**
 * A desk picture as the server and the editor's islands both name it (worker/content/media.ts
 * stores it, worker/content/media-sizes.ts says how a page offers its sizes).
 */

/**
 * A stored picture: its name as uploaded (`<hash>.<ext>`), its upright size, its widths. (A type,
 * not an interface: an island's props must be serialisable, which an interface never proves.)
 */
export type MediaPicture = {
  name: string
  width: number
  height: number
  /** The widths made of it; absent for a picture stored before sizes were made. */
  widths?: number[]
}

/** A social card's size (every og:image is one: the build's and the desk's). */
export const CARD_WIDTH = 1200
export const CARD_HEIGHT = 630

/** One size's file: `<hash>-<width>.<avif|webp>` beside `<hash>.<ext>`. */
export const sizeName = (name: string, width: number, ext: string) =>
  `${name.slice(0, 32)}-${width}.${ext}`
