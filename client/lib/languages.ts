/** The six languages of the site (SPEC §3). Shared by the worker and the browser. */
export const LANGS = ['en', 'es', 'fr', 'de', 'ar', 'pt'] as const
export type Lang = (typeof LANGS)[number]
export const DEFAULT_LANG: Lang = 'en'

/** Each language named in itself, as a visitor looks for it in the selector. */
export const LANGUAGE_NAMES: Record<Lang, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  ar: 'العربية',
  pt: 'Português',
}

/** Name of both the cookie and the localStorage key holding the visitor's choice (SPEC §9). */
export const LANG_STORAGE_KEY = 'preferred-language'

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value)
}

export function dirOf(lang: Lang): 'rtl' | 'ltr' {
  return lang === 'ar' ? 'rtl' : 'ltr'
}
