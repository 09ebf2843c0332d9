import { DEFAULT_LANG, isLang, type Lang } from '../../client/lib/languages'

interface LanguageSources {
  query?: string | null
  cookie?: string | null
  acceptLanguage?: string | null
}

/**
 * Chooses the page language: `?lang=`, then the preference cookie, then Accept-Language
 * (by q-value, primary subtag only), then English. Unsupported codes are ignored (SPEC §4).
 */
export function negotiateLanguage({ query, cookie, acceptLanguage }: LanguageSources): Lang {
  if (isLang(query)) return query
  if (isLang(cookie)) return cookie
  return fromAcceptLanguage(acceptLanguage) ?? DEFAULT_LANG
}

export function fromAcceptLanguage(header: string | null | undefined): Lang | undefined {
  if (!header) return undefined
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      const quality = q ? Number(q.slice(2)) : 1
      return { primary: tag.trim().toLowerCase().split('-')[0], quality, index }
    })
    .filter((r) => r.primary && Number.isFinite(r.quality) && r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
  return ranked.map((r) => r.primary).find(isLang)
}
