import type { Context } from 'hono'
import type { AppEnv } from '../env'

/**
 * The client's address as every per-IP limit counts it (the form guard's [[ratelimits]], the
 * auth service's request limits and failed sign-ins): an IPv4 address whole, an IPv6 address by
 * its /64 prefix. One subscriber's network is a /64 (or larger), which holds 2⁶⁴ addresses to
 * rotate through: counted one by one, a limit per address would limit nothing.
 */
export function clientKey(c: Context<AppEnv>): string {
  const ip = c.req.header('CF-Connecting-IP')?.trim().toLowerCase() || 'unknown'
  if (!ip.includes(':')) return ip
  // an IPv4 address written as IPv6 (::ffff:192.0.2.1) is that IPv4 address
  if (ip.includes('.')) return ip.slice(ip.lastIndexOf(':') + 1)
  const [head = '', tail = ''] = ip.split('::')
  const groups = (s: string) => (s ? s.split(':') : [])
  const full = ip.includes('::')
    ? [
        ...groups(head),
        ...Array<string>(Math.max(0, 8 - groups(head).length - groups(tail).length)).fill('0'),
        ...groups(tail),
      ]
    : groups(ip)
  return `${full
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`
}
