import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import type { AppEnv } from '../env'

export const CONSENT_COOKIE = 'tracking-consent'

export type Consent = 'granted' | 'denied' | 'unset'

/** The visitor's answer to the tracker question, as the page renders it. */
export const consentOf = (c: Context<AppEnv>): Consent => consentIn(getCookie(c, CONSENT_COOKIE))

/** The answer a consent cookie's value records. */
export const consentIn = (value: string | undefined): Consent =>
  value === 'granted' || value === 'denied' ? value : 'unset'
