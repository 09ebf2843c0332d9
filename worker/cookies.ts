import type { Context } from 'hono'
import type { AppEnv } from './env'

/**
 * The options of every cookie the site sets: out of scripts' reach (HttpOnly), sent on
 * top-level navigations from other sites but never on their form posts (Lax), and Secure
 * wherever the site is served over https.
 */
export const httpOnlyCookie = (c: Context<AppEnv>, path: string, maxAge: number) => ({
  path,
  maxAge,
  httpOnly: true,
  sameSite: 'Lax' as const,
  secure: isHttps(c),
})

export const isHttps = (c: Context<AppEnv>) => new URL(c.req.url).protocol === 'https:'
