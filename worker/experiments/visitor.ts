import { isbot } from 'isbot'

/**
 * Who the experiments count (docs/experiments.md): a visitor who accepted analytics, with a
 * first-party id of the site's own, valid 90 days; never a crawler. All HttpOnly: the id, and
 * a cookie per experiment they were first shown a tested text in (when, in which language, and
 * whether their conversion was counted), so each is counted once. One cookie per experiment,
 * not one list: two tabs answered at once would each write the list, and the last would win.
 */
export const VISITOR_COOKIE = 'visitor-id'
/** `exp-12`: the visitor's exposure to experiment 12. */
export const EXPOSURE_PREFIX = 'exp-'
export const VISITOR_SECONDS = 90 * 86_400

const VISITOR_ID = /^[A-Za-z0-9_-]{22}$/

/** 16 random bytes, base64url: nothing about the visitor is in it. */
export function newVisitorId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

export interface Exposure {
  /** When the visitor was first shown the tested text (ms). */
  at: number
  /** The language of that page: their conversion counts in it. */
  lang: string
  converted: boolean
}

/** `1765000000.en` or `1765000000.en.c`: the second it was first seen, its language, `c` once converted. */
export function parseExposure(value: string | undefined): Exposure | undefined {
  const [at, lang, mark] = (value ?? '').split('.')
  if (!/^\d{1,12}$/.test(at ?? '') || !/^[a-z]{2}$/.test(lang ?? '')) return undefined
  return { at: Number(at) * 1000, lang: lang!, converted: mark === 'c' }
}

export const serializeExposure = (e: Exposure) =>
  `${Math.floor(e.at / 1000)}.${e.lang}${e.converted ? '.c' : ''}`

/** The exposures the request's cookies hold, by experiment id. */
export function exposuresIn(cookies: Record<string, string>): Map<number, Exposure> {
  const exposures = new Map<number, Exposure>()
  for (const [name, value] of Object.entries(cookies)) {
    if (!name.startsWith(EXPOSURE_PREFIX)) continue
    const id = name.slice(EXPOSURE_PREFIX.length)
    const exposure = parseExposure(value)
    if (/^\d{1,9}$/.test(id) && exposure) exposures.set(Number(id), exposure)
  }
  return exposures
}

export interface Counted {
  id: string
  exposures: Map<number, Exposure>
}

/**
 * The visitor the experiments count, from the request's cookies, or undefined: no consent to
 * analytics, a crawler's user agent, or no id yet (`wantsId`: consent given, the id still to
 * be set, which only the app does).
 */
export function countedVisitor(
  cookies: Record<string, string>,
  userAgent: string,
  consent: string,
): { visitor?: Counted; wantsId: boolean } {
  if (consent !== 'granted' || isbot(userAgent)) return { wantsId: false }
  const id = cookies[VISITOR_COOKIE]
  if (!id || !VISITOR_ID.test(id)) return { wantsId: true }
  return { visitor: { id, exposures: exposuresIn(cookies) }, wantsId: false }
}
