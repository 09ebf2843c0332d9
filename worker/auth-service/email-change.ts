import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { enqueue, mailRow, writerOf } from '../mail/enqueue'
import { confirmEmailChange, countFirstConfirmation, requestEmailChange, type UserRow } from './db'
import { authError } from './gotrue'
import { changeLink } from './links'
import { secureEmailChange } from './settings'

/**
 * Changing an account's address as GoTrue does (user.go, mail.go sendEmailChange, verify.go
 * emailChangeVerify): PUT /user only asks; the new address waits as `new_email` until the link
 * (or code) sent to it is used, and, with the secure setting, the one sent to the current
 * address too. Until then nothing that trusts an address sees the new one: sign-in, the data
 * export, staff and the mail ceilings all read `email`.
 */

/** GoTrue's answer when the second of a secure change's links is still to be used. */
export const SINGLE_CONFIRMATION =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email'

/** GoTrue's default: one e-mail of a kind a minute (SMTP max frequency). */
const COOLDOWN_SECONDS = 60

/** GoTrue's 429 within a minute of the last request for a change; null when one may be sent. */
export function emailChangeCooldown(c: Context<AppEnv>, user: UserRow) {
  const since = user.email_change_sent_at ? Date.parse(user.email_change_sent_at) : NaN
  const wait = Math.ceil(COOLDOWN_SECONDS - (Date.now() - since) / 1000)
  return wait > 0
    ? authError(
        c,
        429,
        'over_email_send_rate_limit',
        `For security purposes, you can only request this after ${wait} seconds.`,
      )
    : null
}

/**
 * E-mails the links of a change to `newEmail`: one to it, one to the current address (which,
 * without the secure setting, is told and need not answer).
 */
export async function askEmailChange(c: Context<AppEnv>, user: UserRow, newEmail: string) {
  const writer = writerOf(c)
  const mailIds = await requestEmailChange(
    c.env.DB,
    user,
    newEmail,
    secureEmailChange(c.env),
    async ({ toNew, toCurrent }) => [
      await mailRow(writer, 'auth_email_change', newEmail, { link: changeLink(c, toNew) }),
      await mailRow(writer, 'auth_email_change_current', user.email, {
        newEmail,
        ...(toCurrent ? { link: changeLink(c, toCurrent) } : {}),
      }),
    ],
  )
  enqueue(c, mailIds)
}

/** What using one of a change's links or codes came to. */
export type ChangeOutcome =
  | { done: UserRow }
  | { waiting: true }
  | { refused: 'otp_expired' | 'email_exists' }

/**
 * A spent `email_change` link of `user`, sent to `sentTo`: the first of a secure change's two
 * links is counted (and the change waits for the other), the last makes the change.
 */
export async function useChangeToken(
  c: Context<AppEnv>,
  user: UserRow,
  sentTo: string | null,
): Promise<ChangeOutcome> {
  const pending = user.email_change
  // a link of a change since replaced, or dropped by a new password
  if (!pending || (sentTo !== pending && sentTo !== user.email)) return { refused: 'otp_expired' }
  if (secureEmailChange(c.env) && (await countFirstConfirmation(c.env.DB, user.id)))
    return { waiting: true }
  const changed = await confirmEmailChange(c.env.DB, user.id, pending)
  return changed ? { done: changed } : { refused: 'email_exists' }
}
