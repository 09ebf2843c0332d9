import type { Context } from 'hono'
import type { AppEnv } from '../env'

/** The /auth page's modes, each a form of its own. */
export type AuthMode = 'sign-in' | 'sign-up' | 'forgot' | 'magic' | 'mfa'

/**
 * Back to a sign-in page after a form post (303, so a reload does not post again): the mode,
 * the error code the page words in the visitor's language, and what the form should keep.
 */
export function toAuthPage(
  c: Context<AppEnv>,
  mode: AuthMode | undefined,
  state: { error?: string; email?: string; sent?: boolean } = {},
) {
  const q = new URLSearchParams()
  if (mode) q.set('mode', mode)
  if (state.sent) q.set('sent', '1')
  if (state.error) q.set('error', state.error)
  if (state.email) q.set('email', state.email)
  return c.redirect(`/auth${q.size ? `?${q}` : ''}`, 303)
}

/** Back to the account page, with an error code for it to word, and a section to show. */
export function toAccount(c: Context<AppEnv>, error?: string, section?: 'mfa') {
  return c.redirect(
    `/account${error ? `?error=${encodeURIComponent(error)}` : ''}${section ? `#${section}` : ''}`,
    303,
  )
}
