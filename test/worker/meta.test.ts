import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { LANGS } from '../../client/lib/languages'
import { inLang, PAGE_PATHS } from '../routes'

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

describe('meta descriptions', () => {
  // What search engines show under the title: long enough to say something, short enough
  // not to be cut (50–160 characters), in every language.
  it.each(LANGS)(
    'are 50–160 characters on every page in %s',
    async (lang) => {
      const problems: string[] = []
      for (const path of PAGE_PATHS) {
        const res = await SELF.fetch(`https://example.com${inLang(path, lang)}`)
        const html = await res.text()
        const found = [...html.matchAll(/<meta name="description" content="([^"]*)"/g)]
        expect(found, path).toHaveLength(1)
        const text = decode(found[0][1])
        if (text.length < 50 || text.length > 160)
          problems.push(`${path}: ${text.length} "${text}"`)
      }
      expect(problems).toEqual([])
      // every page of the site, one after the other
    },
    20_000,
  )
})
