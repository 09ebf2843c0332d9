import { parseAccept } from 'hono/utils/accept'
import { DEFAULT_LANG, isLang, type Lang } from '../../client/lib/languages'

/** How the language was chosen: the page's language suggestion reads it, the edge cache keys by it. */
export type LangSource = 'query' | 'cookie' | 'negotiated'

/** One of ours for a code in any case, a regional code by its language (`pt-BR` is `pt`). */
function ours(code: string | undefined): Lang | undefined {
  if (!code) return undefined
  const lower = code.trim().toLowerCase()
  const dash = lower.indexOf('-')
  const base = dash === -1 ? lower : lower.slice(0, dash)
  return isLang(base) ? base : undefined
}

function fromHeader(header: string | undefined): Lang | undefined {
  if (!header) return undefined
  // Hono's parser: q-values, sorted by them, malformed parts skipped
  for (const { type, q } of parseAccept(header)) {
    if (q === 0) continue
    const found = ours(type)
    if (found) return found
  }
  return undefined
}

/**
 * `?lang=`, then the preference cookie, then Accept-Language (q-values), then English (SPEC
 * §4); unsupported codes are skipped. One function for the pages, the edge cache's memory and
 * the auth service's mails, so they never disagree on a visitor's language.
 */
export function chooseLanguage(
  query: string | undefined,
  cookie: string | undefined,
  acceptLanguage: string | undefined,
): { lang: Lang; via: LangSource } {
  const via: LangSource = isLang(query) ? 'query' : isLang(cookie) ? 'cookie' : 'negotiated'
  const lang = ours(query) ?? ours(cookie) ?? fromHeader(acceptLanguage) ?? DEFAULT_LANG
  return { lang, via }
}
