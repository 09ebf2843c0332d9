import type { Context } from 'hono'
import type { AppEnv } from '../env'
import { failureCounts } from './db'
import { tooManyFailures } from './gotrue'
import { clientKey } from '../middleware/client-key'
import { limitOf } from './settings'

/**
 * Failed password sign-ins, counted so that nobody can lock another person out. A failure
 * counts against three keys: the (address, IP) pair, the IP, and the address. The pair and the
 * IP are refused (429) past their limits; the address never is, or six wrong passwords from six
 * places would shut its owner out. Past its threshold each sign-in for the address waits a
 * little instead, a quarter second doubling with each further failure, never longer than
 * AUTH_SIGNIN_MAX_DELAY. What a spread-out guesser can try is bounded by the per-IP limits.
 */

/** The keys of a sign-in: [pair, IP, address]. */
export function signInKeys(c: Context<AppEnv>, email: string) {
  const ip = clientKey(c)
  return [`pair:${email}|${ip}`, `ip:${ip}`, `email:${email}`]
}

/** Milliseconds a sign-in for an address with `failures` recent failures waits. */
export function signInDelay(failures: number, after: number, maxSeconds: number) {
  if (failures < after) return 0
  return Math.min(250 * 2 ** Math.min(failures - after, 16), maxSeconds * 1000)
}

/** GoTrue's 429 for a pair or IP over its limit; otherwise null, after the address's wait. */
export async function gateSignIn(c: Context<AppEnv>, keys: string[]) {
  const env = c.env
  const [pair = 0, ip = 0, address = 0] = await failureCounts(
    env.DB,
    keys,
    limitOf(env, 'AUTH_FAILURE_WINDOW'),
  )
  if (pair >= limitOf(env, 'AUTH_SIGNIN_PAIR_LIMIT') || ip >= limitOf(env, 'AUTH_SIGNIN_IP_LIMIT'))
    return tooManyFailures(c, 'sign-in attempts')
  const wait = signInDelay(
    address,
    limitOf(env, 'AUTH_SIGNIN_SLOWDOWN_AFTER'),
    limitOf(env, 'AUTH_SIGNIN_MAX_DELAY'),
  )
  if (wait) await new Promise((resolve) => setTimeout(resolve, wait))
  return null
}
