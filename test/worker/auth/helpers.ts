import { createClient } from '@supabase/supabase-js'
import { SELF } from 'cloudflare:test'
import { DUMMY_TOKEN, TOKEN_FIELD } from '../challenge'
import { randomIp } from '../random-ip'

/** What the auth tests share: the site's origin, fresh addresses, clients of the service. */
export const SITE = 'https://example.com'

export const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.org`

/** The official client, unchanged, talking to the worker from an address of its own. */
export const client = (options: { flowType?: 'implicit' | 'pkce'; ip?: string } = {}) => {
  const ip = options.ip ?? randomIp()
  return createClient(SITE, 'anon-key', {
    auth: {
      // PKCE verifiers and sessions live in the client's memory
      persistSession: false,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      flowType: options.flowType ?? 'implicit',
    },
    global: {
      fetch: (input, init) => {
        const headers = new Headers(init?.headers)
        if (!headers.has('CF-Connecting-IP')) headers.set('CF-Connecting-IP', ip)
        return SELF.fetch(input as RequestInfo, { ...init, headers })
      },
    },
  })
}

/** The service's HTTP API, from an address of its own each time (limits are per IP). */
export const api = (path: string, init: RequestInit = {}) =>
  SELF.fetch(`${SITE}/auth/v1${path}`, {
    ...init,
    headers: {
      'Content-Type': 'application/json',
      'CF-Connecting-IP': randomIp(),
      ...init.headers,
    },
  })

export { codeFor } from '../../totp'

/** The forms that e-mail the address typed: their page's widget adds its token. */
const CHALLENGED = new Set(['/auth/sign-up', '/auth/magic-link', '/auth/recover'])

/** A form posted from the site's page, as a browser with JavaScript posts it. */
export function form(
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  if (CHALLENGED.has(path)) fields = { [TOKEN_FIELD]: DUMMY_TOKEN, ...fields }
  return SELF.fetch(SITE + path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: SITE,
      'CF-Connecting-IP': `198.51.100.${Math.floor(Math.random() * 250)}`,
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  })
}
