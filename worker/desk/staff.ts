import type { Context } from 'hono'
import type { AppEnv } from '../env'

/** What every part of the desk reads of its request (after staffOnly, desk/guard.ts). */

/** The signed-in staff member, as the audit log records them. */
export const staffOf = (c: Context<AppEnv>) => ({
  id: c.var.account!.id,
  email: c.var.account!.email,
})

/** A desk page's <title>. */
export const deskTitle = (c: Context<AppEnv>, text: string) =>
  `${text} | ${c.var.t('meta.title_suffix')}`
