import type { MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { isLang, LANG_STORAGE_KEY } from '../../client/lib/languages'
import { httpOnlyCookie } from '../cookies'
import type { AppEnv } from '../env'
import { chooseLanguage } from '../i18n/negotiate'
import { createTranslator } from '../i18n/translator'

const ONE_YEAR = 60 * 60 * 24 * 365

/** Picks the language of the request (i18n/negotiate.ts) and hands pages a translator for it. */
export function i18n(): MiddlewareHandler<AppEnv> {
  return async function i18n(c, next) {
    const query = c.req.query('lang')
    const { lang, via } = chooseLanguage(
      query,
      getCookie(c, LANG_STORAGE_KEY),
      c.req.header('Accept-Language'),
    )
    c.set('lang', lang)
    c.set('langSource', via)
    c.set('t', createTranslator(lang))
    // An explicit choice (the selector's links carry ?lang=) is remembered for later pages.
    if (isLang(query)) setCookie(c, LANG_STORAGE_KEY, query, httpOnlyCookie(c, '/', ONE_YEAR))
    await next()
    c.header('Content-Language', lang)
    c.header('Vary', 'Accept-Language, Cookie', { append: true })
  }
}
