import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Marked } from 'marked'
import type { Plugin } from 'vite'
import { parse as parseYaml } from 'yaml'

/**
 * `virtual:blog`: the articles of locales/blog/<lang>/<slug>.md (Markdown with front matter an
 * editor can change without touching code), rendered to HTML at build time, never per request.
 */
export function blogContent(dir = 'locales/blog'): Plugin {
  const id = 'virtual:blog'
  return {
    name: 'blog-content',
    resolveId: (source) => (source === id ? '\0' + id : undefined),
    load(resolved) {
      if (resolved !== '\0' + id) return
      const articles: Record<string, Record<string, unknown>> = {}
      for (const lang of readdirSync(dir)) {
        articles[lang] = {}
        for (const file of readdirSync(join(dir, lang)).filter((f) => f.endsWith('.md'))) {
          const path = join(dir, lang, file)
          this.addWatchFile(path)
          articles[lang][file.replace(/\.md$/, '')] = renderArticle(
            readFileSync(path, 'utf8'),
            path,
          )
        }
      }
      return `export default ${JSON.stringify(articles)}`
    },
  }
}

const REQUIRED = ['title', 'description', 'summary', 'category', 'author'] as const

export function renderArticle(source: string, path = 'article') {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(source.replace(/\r\n/g, '\n'))
  if (!match) throw new Error(`${path}: no front matter`)
  const meta = parseYaml(match[1]) as Record<string, unknown>
  for (const key of REQUIRED)
    if (typeof meta[key] !== 'string' || !meta[key])
      throw new Error(`${path}: front matter lacks "${key}"`)
  const headings: { id: string; text: string }[] = []
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
        // the page's h1 is the title, so the article's sections start at h2
        return `<h${depth} id="${id}">${text}</h${depth}>\n`
      },
      // task lists are checklists to print, not form controls
      checkbox: () => '<span class="check" aria-hidden="true"></span>',
      table(token) {
        return `<div class="table-wrap">${this.constructor.prototype.table.call(this, token)}</div>`
      },
    },
  })
  const body = match[2]
  const html = marked.parse(body, { async: false }) as string
  const words = body
    .replace(/[#*|>\-[\]()`]/g, ' ')
    .split(/\s+/)
    .filter(Boolean).length
  return {
    title: meta.title as string,
    description: meta.description as string,
    summary: meta.summary as string,
    category: meta.category as string,
    author: meta.author as string,
    html,
    words,
    headings,
  }
}
