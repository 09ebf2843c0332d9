import { isbot } from 'isbot'

/**
 * Who the experiments count (docs/experiments.md): a visitor who accepted analytics, with a
 * first-party id of the site's own, valid 90 days; never a crawler. Two cookies, both HttpOnly:
 * the id, and the experiments they were first shown a tested text in (with when, and whether
 * their conversion was counted), so each is counted once.
 */
export const VISITOR_COOKIE = 'visitor-id'
export const EXPOSURES_COOKIE = 'experiments'
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
  converted: boolean
}

/** `12.1765000000.c-13.1765000100`: an experiment's id, the second it was first seen, `c` once converted. */
export function parseExposures(value: string | undefined): Map<number, Exposure> {
  const exposures = new Map<number, Exposure>()
  for (const entry of (value ?? '').split('-').slice(0, 64)) {
    const [id, at, mark] = entry.split('.')
    if (!/^\d{1,9}$/.test(id ?? '') || !/^\d{1,12}$/.test(at ?? '')) continue
    exposures.set(Number(id), { at: Number(at) * 1000, converted: mark === 'c' })
  }
  return exposures
}

/** Entries the cookie keeps at most, the newest: far more experiments than ever run at once. */
const KEPT = 24

/**
 * The cookie's value. A paused experiment's entry stays (resumed, it must not count the visitor
 * again); the oldest go past KEPT.
 */
export const serializeExposures = (exposures: Map<number, Exposure>) =>
  [...exposures]
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, KEPT)
    .map(([id, e]) => `${id}.${Math.floor(e.at / 1000)}${e.converted ? '.c' : ''}`)
    .join('-')

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
  return { visitor: { id, exposures: parseExposures(cookies[EXPOSURES_COOKIE]) }, wantsId: false }
}
