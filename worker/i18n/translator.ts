import rosetta from 'rosetta'
import type { Lang } from '../../client/lib/languages'
import en from '../../locales/en.json'
import es from '../../locales/es.json'
import fr from '../../locales/fr.json'
import de from '../../locales/de.json'
import ar from '../../locales/ar.json'
import pt from '../../locales/pt.json'
import guidesEn from '../../locales/guides/en.json'
import guidesEs from '../../locales/guides/es.json'
import guidesFr from '../../locales/guides/fr.json'
import guidesDe from '../../locales/guides/de.json'
import guidesAr from '../../locales/guides/ar.json'
import guidesPt from '../../locales/guides/pt.json'

export const dictionaries: Record<Lang, unknown> = { en, es, fr, de, ar, pt }
/** The free guides' full text, kept in files of their own (locales/guides/) for the editors. */
export const guideDictionaries: Record<Lang, unknown> = {
  en: guidesEn,
  es: guidesEs,
  fr: guidesFr,
  de: guidesDe,
  ar: guidesAr,
  pt: guidesPt,
}

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

const english = { ...en, guides: guidesEn }

/** Whether a key made from data (a validation message, say) names a string of the dictionary. */
export function isMessageKey(key: string): key is MessageKey {
  let node: unknown = english
  for (const part of key.split('.'))
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined
  return typeof node === 'string'
}

export function createTranslator(lang: Lang): Translator {
  const t = ((key: string, params?: Params, fallback?: string) => {
    const value = i18n.t(key, params ?? {}, lang)
    if (typeof value === 'string' && value !== '') return value
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
