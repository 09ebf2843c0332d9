import { describe, expect, it } from 'vitest'
import { LANGS } from '../../client/lib/languages'
import { dictionaries, guideDictionaries } from '../../worker/i18n/translator'
// The same comparison the translators run by hand (scripts/check-locales.mjs).
import { compare } from '../../scripts/check-locales.mjs'

describe('locales', () => {
  it.each(LANGS.filter((l) => l !== 'en'))('%s has every key of en, none empty', (lang) => {
    expect(compare(dictionaries.en, dictionaries[lang], lang)).toEqual([])
  })

  it.each(LANGS.filter((l) => l !== 'en'))('%s has the whole text of the free guides', (lang) => {
    expect(compare(guideDictionaries.en, guideDictionaries[lang], lang)).toEqual([])
    expect(JSON.stringify(guideDictionaries[lang])).not.toBe(JSON.stringify(guideDictionaries.en))
  })

  it('finds a missing or empty key (the check itself works)', () => {
    const broken = structuredClone(dictionaries.en) as {
      nav: Record<string, unknown>
      home: { welcome_title: string }
    }
    delete broken.nav.home
    broken.home.welcome_title = ' '
    expect(compare(dictionaries.en, broken, 'en')).toEqual([
      'nav.home: missing or not a string',
      'home.welcome_title: empty',
    ])
  })

  it('English has the plural forms English needs', () => {
    expect(compare(dictionaries.en, dictionaries.en, 'en')).toEqual([])
  })

  it('finds a missing plural form, a form the language does not have, and a stray placeholder', () => {
    const broken = structuredClone(dictionaries.ar) as { blog: { reading_time: object } }
    const { few: _few, ...rest } = broken.blog.reading_time as Record<string, string>
    broken.blog.reading_time = { ...rest, one: 'دقيقة {{x}}' }
    expect(compare(dictionaries.en, broken, 'ar')).toEqual([
      'blog.reading_time.one: placeholders differ',
      'blog.reading_time.few: missing plural form',
    ])
    const de = structuredClone(dictionaries.de) as { blog: { reading_time: object } }
    de.blog.reading_time = { ...de.blog.reading_time, two: '{{n}} Min.' }
    expect(compare(dictionaries.en, de, 'de')).toEqual([
      'blog.reading_time.two: not a plural form of de',
    ])
  })

  it('translates rather than copies: most strings differ from English', () => {
    for (const lang of LANGS.filter((l) => l !== 'en')) {
      const en = JSON.stringify(dictionaries.en)
      const other = JSON.stringify(dictionaries[lang])
      expect(other, lang).not.toBe(en)
    }
  })
})
