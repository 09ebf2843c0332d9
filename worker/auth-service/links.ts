import type { Context } from 'hono'
import type { AppEnv } from '../env'

/**
 * Where the service's e-mailed links lead: the site's own pages, in the e-mail's language
 * (`lang`, which the pages read first) on whatever device and browser language they are
 * followed. Each page spends its token only when the visitor presses its button.
 */
const pageLink = (c: Context<AppEnv>, path: string, query: Record<string, string>) =>
  `${c.var.config.siteUrl}${path}?${new URLSearchParams({ ...query, lang: c.var.lang })}`

/** A recovery e-mail's link: the site's page to choose a new password. */
export const resetLink = (c: Context<AppEnv>, token: string) =>
  pageLink(c, '/auth/reset', { token })

/** A magic link: the site's page that spends it (GoTrue's token_hash link). */
export const confirmLink = (c: Context<AppEnv>, token: string) =>
  pageLink(c, '/auth/confirm', { token_hash: token, type: 'magiclink' })

/** A sign-up's confirmation link: the same page, for the `signup` token. */
export const signupLink = (c: Context<AppEnv>, token: string) =>
  pageLink(c, '/auth/confirm', { token_hash: token, type: 'signup' })

/** One of an address change's two links (to the new address, and to the current one). */
export const changeLink = (c: Context<AppEnv>, token: string) =>
  pageLink(c, '/auth/confirm', { token_hash: token, type: 'email_change' })
