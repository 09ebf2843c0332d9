import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// Every relative link and picture in README.md and docs/ (recursively) names a file that exists,
// and every `#anchor` into a Markdown file names one of its headings, as GitHub makes their ids.
// Links in fenced code blocks and inline code are text, not links, and are skipped.

const ROOT = resolve('.')

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return markdownFiles(path)
    return name.endsWith('.md') ? [path] : []
  })
}

/** The text outside fenced code blocks, one string per paragraph (blank lines apart). */
function prose(markdown: string): string[] {
  const blocks: string[] = []
  let block: string[] = []
  let fence: string | undefined
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined
      continue
    }
    if (marker) {
      fence = marker
      continue
    }
    if (line.trim() === '') {
      blocks.push(block.join('\n'))
      block = []
    } else block.push(line)
  }
  blocks.push(block.join('\n'))
  return blocks.filter(Boolean).map((b) => b.replace(/<!--[\s\S]*?-->/g, ''))
}

/** A paragraph with its inline code spans blanked (a run of n backticks closes on n). */
function withoutCode(text: string): string {
  return text.replace(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (span) => ' '.repeat(span.length))
}

/** The targets of inline links and pictures `[text](target "title")` and of `[ref]: target`. */
function linkTargets(markdown: string): string[] {
  const targets: string[] = []
  for (const block of prose(markdown)) {
    const text = withoutCode(block)
    for (const m of text.matchAll(/\]\(\s*(<[^>\n]*>|[^\s)]*)/g)) {
      targets.push(m[1].replace(/^<|>$/g, ''))
    }
    for (const m of text.matchAll(/^ {0,3}\[[^\]\n]+\]:\s*(<[^>\n]*>|\S+)/gm)) {
      targets.push(m[1].replace(/^<|>$/g, ''))
    }
  }
  return targets
}

/** GitHub's id of a heading: lower case, spaces to '-', punctuation other than '-' and '_' out. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or picture: its text
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

/** The anchors a Markdown file offers: its headings' ids (repeats get -1, -2…), and HTML ids. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>()
  const seen = new Map<string, number>()
  for (const block of prose(markdown)) {
    for (const line of block.split('\n')) {
      const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1]
      if (heading !== undefined) {
        const base = slug(heading)
        const n = seen.get(base) ?? 0
        seen.set(base, n + 1)
        found.add(n === 0 ? base : `${base}-${n}`)
      }
    }
    for (const m of withoutCode(block).matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) {
      found.add(m[1])
    }
  }
  return found
}

/** Each broken link of one file, as `file: target`. */
function brokenLinks(file: string): string[] {
  const broken: string[] = []
  const name = relative(ROOT, file)
  for (const target of linkTargets(readFileSync(file, 'utf8'))) {
    if (/^(https?:|mailto:|tel:)/i.test(target)) continue
    const [beforeHash, fragment] = target.split('#', 2) as [string, string | undefined]
    const path = beforeHash.split('?')[0]
    let resolved: string
    try {
      const decoded = decodeURI(path)
      resolved =
        decoded === ''
          ? file
          : decoded.startsWith('/')
            ? join(ROOT, decoded)
            : resolve(dirname(file), decoded)
    } catch {
      broken.push(`${name}: ${target}`)
      continue
    }
    if (target === '' || !existsSync(resolved)) {
      broken.push(`${name}: ${target}`)
      continue
    }
    if (fragment !== undefined && resolved.endsWith('.md') && statSync(resolved).isFile()) {
      if (!anchors(readFileSync(resolved, 'utf8')).has(decodeURIComponent(fragment))) {
        broken.push(`${name}: ${target}`)
      }
    }
  }
  return broken
}

describe('the links of README.md and docs/', () => {
  const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))]

  it('name files that exist and headings that exist', () => {
    const links = files.reduce((n, file) => n + linkTargets(readFileSync(file, 'utf8')).length, 0)
    expect(links, 'the README and docs/ link to each other').toBeGreaterThan(20)
    const broken = files.flatMap(brokenLinks)
    expect(broken, `broken links:\n${broken.join('\n')}`).toEqual([])
  })

  it('reads links as GitHub does: code is not a link, and headings have their ids', () => {
    const sample = [
      '# 012: Menus are `<details>`',
      '## How to…',
      '## How to…',
      'See [mail](mail.md#settings-and-bindings), ![shot](a.png "A title") and [up](#how-to-1).',
      'Not links: `[x](inline.md)` and ``a `[y](double.md)` span``, nor <!-- [z](comment.md) -->.',
      '[ref]: <other file.md>',
      '',
      '  ```sh',
      '  # not a heading: [w](fenced.md)',
      '  ```',
    ].join('\n')
    expect(linkTargets(sample)).toEqual([
      'mail.md#settings-and-bindings',
      'a.png',
      '#how-to-1',
      'other file.md',
    ])
    expect([...anchors(sample)]).toEqual(['012-menus-are-details', 'how-to', 'how-to-1'])
    expect(slug("Sign-in: what's switched_off (PKCE)")).toBe('sign-in-whats-switched_off-pkce')
  })
})
