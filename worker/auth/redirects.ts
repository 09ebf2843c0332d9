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

/**
 * Back to the account page, with an error code for it to word, and the section (its panel)
 * the error belongs to: shown there, and scrolled to.
 */
export function toAccount(
  c: Context<AppEnv>,
  error?: string,
  section?: 'mfa' | 'email' | 'password',
) {
  const q = new URLSearchParams()
  if (error) q.set('error', error)
  // an error of the address or password form is shown in its panel; the others above them all
  if (error && (section === 'email' || section === 'password')) q.set('in', section)
  return c.redirect(`/account${q.size ? `?${q}` : ''}${section ? `#${section}` : ''}`, 303)
}
