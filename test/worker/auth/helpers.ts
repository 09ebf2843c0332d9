import { createClient } from '@supabase/supabase-js'
import { SELF } from 'cloudflare:test'

/** What the auth tests share: the site's origin, fresh addresses, clients of the service. */
export const SITE = 'https://example.com'

export const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.org`

/** The official client, unchanged, talking to the worker. */
export const client = () =>
  createClient(SITE, 'anon-key', {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: (input, init) => SELF.fetch(input as RequestInfo, init) },
  })

/** The service's HTTP API, from an address of its own each time (sign-in throttling is per IP). */
export const api = (path: string, init: RequestInit = {}) =>
  SELF.fetch(`${SITE}/auth/v1${path}`, {
    ...init,
    headers: {
      'Content-Type': 'application/json',
      'CF-Connecting-IP': `192.0.2.${Math.floor(Math.random() * 250)}`,
      ...init.headers,
    },
  })

export { codeFor } from '../../totp'
