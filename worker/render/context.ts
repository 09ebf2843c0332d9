import { useRequestContext } from '@hono/react-renderer'
import type { Context } from 'hono'
import type { AppEnv } from '../env'

/** What every server component may read about the request being rendered. */
export function usePage() {
  const c = useRequestContext() as unknown as Context<AppEnv>
  // c.get, not c.var: Hono builds c.var afresh from all the variables on every read, and a
  // page reads this in some sixty components.
  return {
    t: c.get('t'),
    lang: c.get('lang'),
    config: c.get('config'),
    user: c.get('user'),
    path: c.req.path,
    nonce: c.get('secureHeadersNonce'),
  }
}

/** Path of a page in another language: the selector's links and hreflang alternates. */
export function langHref(path: string, lang: string) {
  return `${path}?lang=${lang}`
}
