import type { Context } from 'hono'
import { setCookie } from 'hono/cookie'
import { httpOnlyCookie } from '../cookies'
import type { AppEnv } from '../env'

export const FLASH_COOKIE = 'flash'

/** A notice for the next page (shown by the notices script, then forgotten). */
export function flash(
  c: Context<AppEnv>,
  notice: { title: string; description?: string; variant?: 'destructive' },
) {
  setCookie(c, FLASH_COOKIE, JSON.stringify(notice), httpOnlyCookie(c, '/', 60))
}
