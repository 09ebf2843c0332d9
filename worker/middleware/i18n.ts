import type { MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { languageDetector } from 'hono/language'
import {
  DEFAULT_LANG,
  isLang,
  LANGS,
  LANG_STORAGE_KEY,
  type Lang,
} from '../../client/lib/languages'
import { httpOnlyCookie } from '../cookies'
import type { AppEnv } from '../env'
import { createTranslator } from '../i18n/translator'

const ONE_YEAR = 60 * 60 * 24 * 365

/**
 * `?lang=`, then the preference cookie, then Accept-Language (q-values; `pt-BR` is `pt`), then
 * English (SPEC §4); unsupported codes are skipped. Hono's detector does the negotiation.
 */
export const detectLanguage = () =>
  languageDetector({
    order: ['querystring', 'cookie', 'header'],
    lookupQueryString: 'lang',
    lookupCookie: LANG_STORAGE_KEY,
    supportedLanguages: [...LANGS],
    fallbackLanguage: DEFAULT_LANG,
    // only an explicit choice is remembered (below), never a guess from the browser's header
    caches: false,
  })

/** Picks the language of the request and hands pages a translator for it. */
export function i18n(): MiddlewareHandler<AppEnv> {
  const detect = detectLanguage()
  return async function i18n(c, next) {
    return detect(c, async () => {
      const lang = c.get('language') as Lang
      c.set('lang', lang)
      c.set('t', createTranslator(lang))
      // An explicit choice (the selector's links carry ?lang=) is remembered for later pages.
      const query = c.req.query('lang')
      if (isLang(query)) setCookie(c, LANG_STORAGE_KEY, query, httpOnlyCookie(c, '/', ONE_YEAR))
      c.set(
        'langSource',
        isLang(query) ? 'query' : isLang(getCookie(c, LANG_STORAGE_KEY)) ? 'cookie' : 'negotiated',
      )
      await next()
      c.header('Content-Language', lang)
      c.header('Vary', 'Accept-Language, Cookie', { append: true })
    })
  }
}
