import {
  convert,
  type FormatCallback,
  type HtmlToTextOptions,
  type SelectorDefinition,
} from 'html-to-text'
import sanitizeHtml from 'sanitize-html'
import type { Lang } from '../../client/lib/languages'
import { ARTICLE_TAGS, MEDIA_PREFIX, renderMarkdown } from '../content/markdown'

/**
 * A newsletter's Markdown as e-mail HTML, and that HTML as the e-mail's text part and preheader.
 * The articles' renderer and sanitiser make it safe (worker/content/markdown.ts: no raw HTML, no
 * scripts, links http(s)/mailto/tel or our own paths, pictures only from /media/); a second pass
 * of sanitize-html gives each element the inline style mail clients need (they drop <style> and
 * classes) and makes our own paths absolute, since a mailbox has no origin to resolve them.
 */

const TEXT = 'margin:0 0 16px;font-size:16px;line-height:24px;color:#1e293b'
const STYLES: Record<string, string> = {
  p: TEXT,
  ul: `${TEXT};padding-inline-start:24px`,
  ol: `${TEXT};padding-inline-start:24px`,
  li: 'margin:0 0 6px',
  h2: 'margin:24px 0 12px;font-size:22px;line-height:28px;color:#0f172a',
  h3: 'margin:20px 0 10px;font-size:18px;line-height:24px;color:#0f172a',
  h4: 'margin:16px 0 8px;font-size:16px;line-height:22px;color:#0f172a',
  // a pasted address breaks anywhere, in a table's cell too (see th, td)
  a: 'color:#1d3fb0;font-weight:600;overflow-wrap:anywhere;word-break:break-word',
  img: 'display:block;max-width:100%;height:auto;border:0;margin:0 0 16px;border-radius:8px',
  blockquote:
    'margin:0 0 16px;padding:12px 16px;background-color:#f8fafc;border-inline-start:4px solid #cbd5e1;color:#1e293b',
  table: 'border-collapse:collapse;margin:0 0 16px;font-size:14px',
  // a cell's words stay whole (the layout breaks anywhere, which would squeeze a short column
  // into a letter a line beside a long one); only its links break anywhere
  th: 'border:1px solid #e2e8f0;padding:6px 10px;text-align:start;background-color:#f8fafc;overflow-wrap:break-word;word-break:normal',
  td: 'border:1px solid #e2e8f0;padding:6px 10px;text-align:start;overflow-wrap:break-word;word-break:normal',
  hr: 'border:0;border-top:1px solid #e2e8f0;margin:24px 0',
  pre: 'margin:0 0 16px;padding:12px;background-color:#f1f5f9;white-space:pre-wrap;font-size:14px',
  code: 'font-family:Menlo,Consolas,monospace;font-size:14px',
}

/** Our own path made absolute: a mailbox has no origin to resolve it. */
const absolute = (url: string, siteUrl: string) => (url.startsWith('/') ? `${siteUrl}${url}` : url)

/**
 * A link of the e-mail: our own paths made absolute, and our pages opened in the reader's
 * language (`?lang=`, as the unsubscribe link does), whatever their browser prefers.
 */
function mailLink(href: string, siteUrl: string, lang: Lang) {
  const url = absolute(href, siteUrl)
  if (!url.startsWith(`${siteUrl}/`) && url !== siteUrl) return url
  const own = new URL(url)
  if (!own.pathname.startsWith(MEDIA_PREFIX) && !own.searchParams.has('lang'))
    own.searchParams.set('lang', lang)
  return own.href
}

/**
 * The Markdown as the e-mail's body HTML, its links and pictures pointing at `siteUrl`, its
 * links to our pages in `lang`.
 */
export function emailBodyHtml(markdown: string, siteUrl: string, lang: Lang) {
  const styled = (tag: string, attribs: sanitizeHtml.Attributes) => {
    const next: sanitizeHtml.Attributes = { ...attribs }
    delete next.class
    delete next.id
    if (next.href) next.href = mailLink(next.href, siteUrl, lang)
    if (next.src) next.src = absolute(next.src, siteUrl)
    if (STYLES[tag]) next.style = STYLES[tag]
    return { tagName: tag, attribs: next }
  }
  const { html } = renderMarkdown(markdown)
  // the first pass's tags stay; only the attributes mail needs pass
  return sanitizeHtml(html, {
    allowedTags: ARTICLE_TAGS,
    allowedAttributes: {
      '*': ['style'],
      a: ['href', 'title'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      ol: ['start'],
      th: ['align'],
      td: ['align'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowProtocolRelative: false,
    // every style here is STYLES' own, set by transformTags (the first pass lets none through):
    // written as given, not parsed by postcss, which the Worker does not bundle (vite.config.ts)
    parseStyleAttributes: false,
    transformTags: Object.fromEntries(
      [...Object.keys(STYLES), 'span', 'div', 'strong', 'em', 'del', 'thead', 'tbody', 'tr'].map(
        (tag) => [tag, (t: string, a: sanitizeHtml.Attributes) => styled(t, a)],
      ),
    ),
  })
}

/** An address as compared: parsed, without the `?lang=` mailLink may have given it. */
function address(url: string) {
  const plain = url.replace(/^mailto:/, '')
  if (!URL.canParse(plain)) return plain
  const parsed = new URL(plain)
  parsed.searchParams.delete('lang')
  return parsed.href
}

/**
 * A link of the text part: its words, then its address in brackets; an address written out as
 * the link's words (an autolink) once, as the HTML links it.
 */
const textLink: FormatCallback = (elem, walk, builder) => {
  const href = elem.attribs?.href ?? ''
  const shown = href.replace(/^mailto:/, '')
  const [only] = elem.children
  if (
    href &&
    elem.children.length === 1 &&
    only.type === 'text' &&
    address(only.data ?? '') === address(href)
  )
    return builder.addInline(shown, { noWordTransform: true })
  walk(elem.children, builder)
  if (href) builder.addInline(` (${shown})`, { noWordTransform: true })
}

/** Headings and table headers as written: upper case means nothing in Arabic. */
const AS_WRITTEN: SelectorDefinition[] = [
  ...['h2', 'h3', 'h4', 'h5', 'h6'].map((h) => ({ selector: h, options: { uppercase: false } })),
  { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
]

// html-to-text: what a text-only client, a screen reader or a watch shows of the HTML. No hard
// wrapping (the reader's screen wraps; a line cut at 80 is ragged on a phone), a link as its
// words and then its address.
const TEXT_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  formatters: { textLink },
  selectors: [
    { selector: 'a', format: 'textLink' },
    { selector: 'img', options: { linkBrackets: ['(', ')'] } },
    ...AS_WRITTEN,
  ],
}

/** The body HTML (emailBodyHtml) as the e-mail's text part: every link written out in full. */
export const emailBodyText = (html: string) => convert(html, TEXT_OPTIONS)

const PREHEADER_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    // one line of words: a list's items without the text part's " * " (an empty prefix is ignored)
    { selector: 'ul', options: { itemPrefix: ' ' } },
    ...AS_WRITTEN,
  ],
}

/** The line mail clients show after the subject: the body's first words, text only. */
export function emailPreheader(html: string) {
  // 140 characters of text lie in the first few thousand of HTML (each element's inline style is
  // ~100): a long issue is not parsed whole for them; the parser drops a tag cut in half
  const words = convert(html.slice(0, 8000), PREHEADER_OPTIONS).replace(/\s+/g, ' ').trim()
  // by code point, so an emoji is never cut in half
  return Array.from(words).slice(0, 140).join('')
}
