import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import type { AppEnv } from '../env'

export const CONSENT_COOKIE = 'tracking-consent'

export type Consent = 'granted' | 'denied' | 'unset'

/** The visitor's answer to the tracker question, as the page renders it. */
export function consentOf(c: Context<AppEnv>): Consent {
  const value = getCookie(c, CONSENT_COOKIE)
  return value === 'granted' || value === 'denied' ? value : 'unset'
}
