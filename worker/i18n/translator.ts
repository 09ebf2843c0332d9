import rosetta from 'rosetta'
import { LANGS, type Lang } from '../../client/lib/languages'
import { pluralForm, type PluralForms } from '../../client/lib/plural'
import { formatNumber } from './format'
import type en from '../../locales/en.json'
import type guidesEn from '../../locales/guides/en.json'

// Every locale file, found by name: a new language needs its files and its code in LANGS.
const siteFiles = import.meta.glob<{ default: unknown }>('../../locales/*.json', { eager: true })
const guideFiles = import.meta.glob<{ default: unknown }>('../../locales/guides/*.json', {
  eager: true,
})
const byLang = (files: Record<string, { default: unknown }>, dir: string) =>
  Object.fromEntries(LANGS.map((l) => [l, files[`${dir}/${l}.json`]?.default])) as Record<
    Lang,
    unknown
  >

export const dictionaries = byLang(siteFiles, '../../locales')
/** The free guides' full text, kept in files of their own (locales/guides/) for the editors. */
export const guideDictionaries = byLang(guideFiles, '../../locales/guides')

// One shared instance; the language is passed on every lookup, so concurrent streamed
// requests in different languages never share mutable locale state.
const i18n = rosetta(
  Object.fromEntries(
    Object.entries(dictionaries).map(([lang, dict]) => [
      lang,
      { ...(dict as object), guides: guideDictionaries[lang as Lang] },
    ]),
  ),
)

export type Params = Record<string, string | number>

type Messages = typeof en & { guides: typeof guidesEn }

/** Dotted paths to the strings of the English dictionary: a wrong key does not compile. */
type StringPaths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? `${P}${K}`
    : T[K] extends readonly unknown[] | { other: string }
      ? never
      : StringPaths<T[K], `${P}${K}.`>
}[keyof T & string]

/** Dotted paths to the strings with a count: objects of plural forms (`{ one, other }` in English). */
type PluralPaths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends { other: string }
    ? `${P}${K}`
    : T[K] extends string | readonly unknown[]
      ? never
      : PluralPaths<T[K], `${P}${K}.`>
}[keyof T & string]

/** Dotted paths to any entry (lists and objects too), for structured content. */
type AnyPaths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string
    ? `${P}${K}`
    : T[K] extends readonly unknown[]
      ? `${P}${K}`
      : `${P}${K}` | AnyPaths<T[K], `${P}${K}.`>
}[keyof T & string]

export type MessageKey = StringPaths<Messages>
export type PluralKey = PluralPaths<Messages>
export type ContentKey = AnyPaths<Messages>

export interface Translator {
  /** A string: the translation, else `fallback`, else the key itself (SPEC §4). */
  (key: MessageKey, params?: Params, fallback?: string): string
  /**
   * A string with a count: the form `n` takes in the language, `{{n}}` the number written in it
   * (unless `params` gives its own `n`: "15,300+").
   */
  plural(key: PluralKey, n: number, params?: Params): string
  /** Every form of a string with a count, `{{n}}` left in for an island to fill in. */
  forms(key: PluralKey, params?: Params): PluralForms
  /** Structured content (lists, objects) kept in the locale files. */
  data<T>(key: ContentKey): T
  lang: Lang
}

const english = { ...(dictionaries.en as object), guides: guideDictionaries.en }

/** Whether a key made from data (a validation message, say) names a string of the dictionary. */
export function isMessageKey(key: string): key is MessageKey {
  let node: unknown = english
  for (const part of key.split('.'))
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined
  return typeof node === 'string'
}

// Every render makes a few hundred lookups. rosetta walks the dotted path (a split and a walk)
// and runs its template on every call; the answer to a lookup without parameters never
// changes, so each language remembers it: a string, or the very list or object rosetta hands
// back. Only keys the dictionary has are remembered, so the caches stay as small as it is.
const plain = new Map<Lang, Map<string, unknown>>()
const translators = new Map<Lang, Translator>()

export function createTranslator(lang: Lang): Translator {
  const known = translators.get(lang)
  if (known) return known
  let seen = plain.get(lang)
  if (!seen) plain.set(lang, (seen = new Map()))
  const lookup = (key: string): unknown => {
    let value = seen.get(key)
    if (value === undefined) {
      value = i18n.t(key, {}, lang) as unknown
      if (value !== '' && value !== undefined) seen.set(key, value)
    }
    return value
  }
  const t = ((key: string, params?: Params, fallback?: string) => {
    const value = params ? i18n.t(key, params, lang) : lookup(key)
    if (typeof value === 'string' && value !== '') return value
    if (fallback !== undefined) return fallback
    return key
  }) as Translator
  const formsOf = (key: string) => {
    const forms = lookup(key)
    return (forms && typeof forms === 'object' ? forms : { other: key }) as PluralForms
  }
  t.plural = (key, n, params) =>
    t(`${key}.${pluralForm(lang, n, formsOf(key))}` as MessageKey, {
      n: formatNumber(lang, n),
      ...params,
    })
  t.forms = (key, params) =>
    Object.fromEntries(
      Object.keys(formsOf(key)).map((form) => [
        form,
        t(`${key}.${form}` as MessageKey, { n: '{{n}}', ...params }),
      ]),
    ) as PluralForms
  t.data = <T>(key: string): T => {
    const value = lookup(key)
    return (value === '' || value === undefined ? i18n.t(key, {}, 'en') : value) as T
  }
  t.lang = lang
  translators.set(lang, t)
  return t
}

/**
 * The translator with some strings of its own (experiments/assignments.ts: a variant B, a past
 * winner's text) in place of the locale file's; everything else as `t` has it.
 */
export function withTexts(t: Translator, texts: Record<string, string>): Translator {
  const own = ((key: MessageKey, params?: Params, fallback?: string) =>
    Object.hasOwn(texts, key) && !params ? texts[key]! : t(key, params, fallback)) as Translator
  own.plural = t.plural
  own.forms = t.forms
  own.data = t.data
  own.lang = t.lang
  return own
}
