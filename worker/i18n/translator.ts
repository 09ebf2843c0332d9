import rosetta from 'rosetta'
import { LANGS, type Lang } from '../../client/lib/languages'
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
    : T[K] extends readonly unknown[]
      ? never
      : StringPaths<T[K], `${P}${K}.`>
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
export type ContentKey = AnyPaths<Messages>

export interface Translator {
  /** A string: the translation, else `fallback`, else the key itself (SPEC §4). */
  (key: MessageKey, params?: Params, fallback?: string): string
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

/**
 * Each language's strings without parameters, once looked up: a page asks for a hundred or
 * more (header, footer, a desk table's labels), and each lookup walks the dotted path and runs
 * the template; it was the render's third costliest function. The dictionaries never change.
 */
const plain = Object.fromEntries(LANGS.map((l) => [l, new Map<string, string>()])) as Record<
  Lang,
  Map<string, string>
>

export function createTranslator(lang: Lang): Translator {
  const known = plain[lang]
  const t = ((key: string, params?: Params, fallback?: string) => {
    if (!params) {
      const hit = known.get(key)
      if (hit !== undefined) return hit
    }
    const value = i18n.t(key, params ?? {}, lang)
    if (typeof value === 'string' && value !== '') {
      if (!params) known.set(key, value)
      return value
    }
    if (fallback !== undefined) return fallback
    return key
  }) as Translator
  t.data = <T>(key: string): T => {
    const value = i18n.t(key, {}, lang) as unknown
    return (value === '' ? i18n.t(key, {}, 'en') : value) as T
  }
  t.lang = lang
  return t
}
