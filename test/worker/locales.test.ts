import { describe, expect, it } from 'vitest'
import { LANGS } from '../../client/lib/languages'
import { dictionaries, guideDictionaries } from '../../worker/i18n/translator'
// The same comparison the translators run by hand (scripts/check-locales.mjs).
import { compare } from '../../scripts/check-locales.mjs'

describe('locales', () => {
  it.each(LANGS.filter((l) => l !== 'en'))('%s has every key of en, none empty', (lang) => {
    expect(compare(dictionaries.en, dictionaries[lang])).toEqual([])
  })

  it.each(LANGS.filter((l) => l !== 'en'))('%s has the whole text of the free guides', (lang) => {
    expect(compare(guideDictionaries.en, guideDictionaries[lang])).toEqual([])
    expect(JSON.stringify(guideDictionaries[lang])).not.toBe(JSON.stringify(guideDictionaries.en))
  })

  it('finds a missing or empty key (the check itself works)', () => {
    const broken = structuredClone(dictionaries.en) as {
      nav: Record<string, unknown>
      home: { welcome_title: string }
    }
    delete broken.nav.home
    broken.home.welcome_title = ' '
    expect(compare(dictionaries.en, broken)).toEqual([
      'nav.home: missing or not a string',
      'home.welcome_title: empty',
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
