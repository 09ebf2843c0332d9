import { Marked, type Tokens } from 'marked'
import sanitizeHtml from 'sanitize-html'
import type { MediaPicture } from '../../client/lib/media-picture'
import { PICTURE_SIZES, pictureSources } from './media-sizes'

/**
 * An article's Markdown made into the HTML its page shows, once, when it is saved (never per
 * request): marked renders it, sanitize-html keeps only what an article is made of. Raw HTML
 * written into the Markdown is shown as text, links go only to http(s), mailto, tel or our own
 * paths, and images only come from our own store (/media/, worker/content/media.ts), so the
 * page's strict Content-Security-Policy needs nothing new. Its users import it when they render
 * (`await import`): the build makes it a module of its own, which an isolate that serves pages
 * never loads (marked builds its grammar's expressions as it loads, a tenth of a start-up).
 */

export interface RenderedBody {
  html: string
  /** The h2 sections, for the page's table of contents. */
  headings: { id: string; text: string }[]
  words: number
}

/** Where an article's pictures come from: the files the desk stored (worker/content/media.ts). */
export const MEDIA_PREFIX = '/media/'

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** The tags an article (and a newsletter) may hold. */
export const ARTICLE_TAGS = [
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'br',
  'hr',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'div',
  'span',
]

const SANITIZE: sanitizeHtml.IOptions = {
  // an article's pictures are offered in the sizes made at upload (content/media-sizes.ts)
  allowedTags: [...ARTICLE_TAGS, 'picture', 'source'],
  allowedAttributes: {
    source: ['type', 'srcset', 'sizes'],
    h2: ['id'],
    h3: ['id'],
    h4: ['id'],
    h5: ['id'],
    h6: ['id'],
    a: ['href', 'title'],
    img: ['src', 'srcset', 'sizes', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
    ol: ['start'],
    th: ['align'],
    td: ['align'],
    div: ['class'],
    span: ['class', 'aria-hidden'],
  },
  allowedClasses: { div: ['table-wrap'], span: ['check'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  // no style attribute passes, so none is parsed (postcss is not bundled: vite.config.ts)
  parseStyleAttributes: false,
  // whatever is not allowed goes, its text kept (a <script>'s content is dropped with it)
  disallowedTagsMode: 'discard',
  exclusiveFilter: (frame) =>
    (frame.tag === 'img' && !frame.attribs.src?.startsWith(MEDIA_PREFIX)) ||
    ((frame.tag === 'img' || frame.tag === 'source') && !ourSrcset(frame.attribs.srcset)),
}

/** A `srcset` of our own store only (or none). */
const ourSrcset = (srcset: string | undefined) =>
  !srcset || srcset.split(',').every((candidate) => candidate.trim().startsWith(MEDIA_PREFIX))

/**
 * `pictures`: the stored pictures the text shows (by name, content/media.ts), so that each is
 * given its size and the sizes made of it; a picture not among them is shown as written.
 */
export function renderMarkdown(
  body: string,
  pictures: ReadonlyMap<string, MediaPicture> = new Map(),
): RenderedBody {
  const headings: RenderedBody['headings'] = []
  // a repeated heading ("Suggested structure" under each sequence) gets -2, -3…: ids are unique
  const used = new Map<string, number>()
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }) {
        const text = this.parser.parseInline(tokens)
        const plain = text.replace(/<[^>]+>/g, '')
        const slug = plain
          .toLowerCase()
          .normalize('NFKD')
          .replace(/[^\p{L}\p{N}]+/gu, '-')
          .replace(/^-|-$/g, '')
        const seen = (used.get(slug) ?? 0) + 1
        used.set(slug, seen)
        const id = seen === 1 ? slug : `${slug}-${seen}`
        if (depth === 2) headings.push({ id, text: plain })
        // the page's h1 is the title, so an article's sections start at h2
        return `<h${Math.max(2, depth)} id="${id}">${text}</h${Math.max(2, depth)}>\n`
      },
      // raw HTML in the Markdown is the author's text, not markup
      html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
      image({ href, title, text }) {
        const src = href.startsWith(MEDIA_PREFIX) ? href : ''
        const t = title ? ` title="${escapeHtml(title)}"` : ''
        const stored = pictures.get(src.slice(MEDIA_PREFIX.length))
        if (!stored)
          return `<img src="${escapeHtml(src)}" alt="${escapeHtml(text)}"${t} loading="lazy" decoding="async">`
        const sizes = PICTURE_SIZES.article
        const sources = pictureSources(stored)
        const img = `<img src="${sources?.src ?? src}"${sources ? ` srcset="${sources.webp}" sizes="${sizes}"` : ''} width="${stored.width}" height="${stored.height}" alt="${escapeHtml(text)}"${t} loading="lazy" decoding="async">`
        return sources
          ? `<picture><source type="image/avif" srcset="${sources.avif}" sizes="${sizes}">${img}</picture>`
          : img
      },
      // task lists are checklists to print, not form controls
      checkbox: () => '<span class="check" aria-hidden="true"></span>',
      table(token) {
        return `<div class="table-wrap">${this.constructor.prototype.table.call(this, token)}</div>`
      },
    },
  })
  const html = sanitizeHtml(marked.parse(body, { async: false }) as string, SANITIZE)
  const words = body
    .replace(/[#*|>\-[\]()`]/g, ' ')
    .split(/\s+/)
    .filter(Boolean).length
  return { html, headings, words }
}
