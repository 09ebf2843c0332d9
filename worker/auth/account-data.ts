import { Hono, type Context } from 'hono'
import * as v from 'valibot'
import { readForm } from '../api/forms'
import type { AppEnv } from '../env'
import { flash } from '../render/flash'
import { eraseData, exportData, jsonDownload } from '../services/data-rights'
import { authClient } from './client'
import { guard, sixDigits } from './forms'
import { forgetSession, signedInOnly } from './session'

/**
 * The account page's data rights: a copy of everything about the account, and deleting it.
 * Deleting asks for a six-digit code e-mailed to the address first (the sign-in code flow of
 * the provider: it works with any GoTrue), so a session left open on a shared computer cannot
 * delete the account by itself.
 */
export const accountDataRoutes = new Hono<AppEnv>()

const toDelete = (error?: string) =>
  `/account?delete=sent${error ? `&error=${encodeURIComponent(error)}` : ''}#delete`

/** The account as the provider knows it (its factors by name, never their secrets) and the rest. */
accountDataRoutes.post('/account/data', ...guard, signedInOnly, async (c) => {
  const account = c.var.account
  if (!account) return c.redirect('/account?error=unavailable', 303)
  const { id, email, created_at, email_confirmed_at, last_sign_in_at, user_metadata, factors } =
    account
  return jsonDownload(
    c,
    await exportData(c.env, account.email, {
      account: {
        id,
        email,
        created_at,
        email_confirmed_at,
        last_sign_in_at,
        user_metadata,
        factors: (factors ?? []).map(({ friendly_name, factor_type, status, created_at }) => ({
          friendly_name,
          factor_type,
          status,
          created_at,
        })),
      },
    }),
  )
})

/**
 * The site keeps exactly one Owner of its desk (worker/roles.ts): their account is not deleted
 * while it is the Owner's, at either step. (A hosted service's own dashboard is not ours to
 * hold back.)
 */
const ownsTheSite = (c: Context<AppEnv>) => c.var.account?.app_metadata?.role === 'owner'
const ownerRefused = '/account?error=owner_cannot_delete#delete'

/** Step one: a code to the account's address. */
accountDataRoutes.post('/account/delete-code', ...guard, signedInOnly, async (c) => {
  if (ownsTheSite(c)) return c.redirect(ownerRefused, 303)
  const email = c.var.account?.email ?? c.var.user!.email
  const res = await authClient(c).sendOwnAccountCode(email)
  if (!res.ok) return c.redirect(`/account?error=${encodeURIComponent(res.code)}#delete`, 303)
  return c.redirect(toDelete(), 303)
})

const Code = v.object({ code: sixDigits })

/**
 * Step two: the code, then the provider deletes the user (sessions, factors, codes) and the site
 * erases what it holds under the address; the browser's cookies go too. Other devices' access
 * tokens are refused by the provider at once (their session is gone) and at the latest when
 * they expire within the hour.
 */
accountDataRoutes.post('/account/delete', ...guard, signedInOnly, async (c) => {
  if (ownsTheSite(c)) return c.redirect(ownerRefused, 303)
  const user = c.var.account ?? { id: c.var.user!.id, email: c.var.user!.email }
  const input = await readForm(c, Code)
  if (!input) return c.redirect(toDelete('invalid_code'), 303)
  const auth = authClient(c)
  const verified = await auth.verify({ type: 'email', email: user.email, token: input.code })
  if (!verified.ok || verified.data?.user?.id !== user.id)
    return c.redirect(
      toDelete(!verified.ok && verified.status >= 500 ? 'unavailable' : 'invalid_code'),
      303,
    )
  const deleted = await auth.deleteUser(user.id)
  if (!deleted.ok) return c.redirect(toDelete('unavailable'), 303)
  await eraseData(c.env, user.email, c.executionCtx)
  forgetSession(c)
  const t = c.var.t
  flash(c, {
    title: t('auth.deleted_title'),
    description: t('auth.deleted_text', { email: user.email }),
  })
  return c.redirect('/', 303)
})
