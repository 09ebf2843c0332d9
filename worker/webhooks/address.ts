import type { Bindings } from '../bindings'

/**
 * Only the internet (docs/webhooks.md "Addresses"): where a webhook may be sent, checked when an
 * endpoint is saved and again before every attempt. The URL is parsed by the WHATWG parser
 * (`new URL`), which validates it and writes every spelling of an IPv4 address (2130706433,
 * 0x7f.1, 0177.0.0.1) as dotted decimal and every IPv6 one compressed, in brackets: the ranges
 * are checked on that form.
 *
 * A host name is not resolved: a Worker has no DNS API, so a name that resolves to a private
 * address cannot be refused here. Cloudflare's own fetch does not reach private networks (nor
 * its own internal addresses); the guard keeps the literal addresses and local names out, and
 * the same rule holds locally, where fetch would reach them.
 */
export type AddressCheck =
  | { ok: true; url: URL }
  | { ok: false; reason: 'not_https' | 'private' | 'localhost' | 'invalid' }

/** WEBHOOK_ALLOW_LOCAL = "true" (npm start, the tests): http:// and 127.0.0.1/localhost too. */
// never in production, whatever the setting says (a var copied over by mistake)
const allowsLocal = (env: Pick<Bindings, 'WEBHOOK_ALLOW_LOCAL' | 'ENVIRONMENT'>) =>
  env.WEBHOOK_ALLOW_LOCAL === 'true' && env.ENVIRONMENT !== 'production'

/** Names only a private network resolves: a single label, and the reserved local suffixes. */
const privateName = (host: string) =>
  !host.includes('.') ||
  ['.local', '.internal', '.home.arpa', '.lan', '.intranet'].some((s) => host.endsWith(s))

export function isAllowedUrl(
  value: string,
  env: Pick<Bindings, 'WEBHOOK_ALLOW_LOCAL' | 'ENVIRONMENT'>,
): AddressCheck {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return { ok: false, reason: 'invalid' }
  }
  const local = allowsLocal(env)
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:'))
    return { ok: false, reason: url.protocol === 'http:' ? 'not_https' : 'invalid' }
  // credentials in a webhook's address would travel in clear in every log line that shows it
  if (url.username || url.password || !url.hostname) return { ok: false, reason: 'invalid' }
  const host = url.hostname.toLowerCase().replace(/\.+$/, '')
  if (host === 'localhost' || host.endsWith('.localhost'))
    return local ? { ok: true, url } : { ok: false, reason: 'localhost' }
  const v4 = parseIPv4(host)
  if (v4) return refusedV4(v4, local) ? { ok: false, reason: 'private' } : { ok: true, url }
  if (host.startsWith('[')) {
    const v6 = parseIPv6(host.slice(1, -1))
    if (!v6) return { ok: false, reason: 'invalid' }
    return refusedV6(v6, local) ? { ok: false, reason: 'private' } : { ok: true, url }
  }
  return privateName(host) ? { ok: false, reason: 'private' } : { ok: true, url }
}

/** Dotted decimal, as the URL parser writes an IPv4 host; null for a name. */
function parseIPv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  if (!m) return null
  const parts = m.slice(1).map(Number)
  return parts.every((p) => p <= 255) ? parts : null
}

/** Address ranges no webhook goes to: [first octets, prefix length]. */
const V4_REFUSED: [number[], number][] = [
  [[0, 0, 0, 0], 8], // "this network", 0.0.0.0
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // carrier-grade NAT
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local, cloud metadata (169.254.169.254)
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, broadcast
]

const v4Number = (p: number[]) => ((p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3]) >>> 0

function inV4Range(address: number[], [base, bits]: [number[], number]) {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0
  return (v4Number(address) & mask) >>> 0 === (v4Number(base) & mask) >>> 0
}

function refusedV4(address: number[], local: boolean) {
  // locally, the machine itself (the catcher of npm start, the tests' receiver)
  if (local && address[0] === 127) return false
  return V4_REFUSED.some((range) => inV4Range(address, range))
}

/**
 * The eight 16-bit groups of an IPv6 address as the URL parser writes it: hex groups, `::` at
 * most once (it never writes an IPv4 tail: ::ffff:10.0.0.1 becomes ::ffff:a00:1).
 */
function parseIPv6(text: string): number[] | null {
  const halves = text.split('::')
  if (halves.length > 2) return null
  const groups = (s: string) =>
    s ? s.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)) : []
  const head = groups(halves[0])
  const rest = halves.length === 2 ? groups(halves[1]) : []
  const missing = 8 - head.length - rest.length
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null
  const all = [...head, ...Array<number>(missing).fill(0), ...rest]
  return all.every((g) => Number.isInteger(g)) ? all : null
}

function refusedV6(g: number[], local: boolean): boolean {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0)
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible): the IPv4 address decides
  const embedsV4 = zeroUpTo(5) && (g[5] === 0xffff || (g[5] === 0 && g[6] !== 0))
  if (embedsV4) return refusedV4([g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff], local)
  if (zeroUpTo(7) && g[7] === 1) return !local // ::1, loopback
  if (zeroUpTo(8)) return true // ::, unspecified
  if ((g[0] & 0xfe00) === 0xfc00) return true // fc00::/7, unique local
  if ((g[0] & 0xffc0) === 0xfe80) return true // fe80::/10, link-local
  if ((g[0] & 0xffc0) === 0xfec0) return true // fec0::/10, site-local (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return true // multicast
  // 64:ff9b::/96, NAT64 of an IPv4 address: the IPv4 address decides
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return refusedV4([g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff], local)
  // 2002::/16, 6to4: the IPv4 address in its next 32 bits decides
  if (g[0] === 0x2002) return refusedV4([g[1] >> 8, g[1] & 0xff, g[2] >> 8, g[2] & 0xff], local)
  return false
}

/**
 * An endpoint's address as the history and e-mails name it: its origin and first path segment.
 * Many receivers' addresses are their own credential (Slack's, Zapier's, Make's): the rest of
 * the path is left out of every place but the integrations page itself.
 */
export function shownUrl(value: string) {
  try {
    const url = new URL(value)
    const [first, ...rest] = url.pathname.split('/').filter(Boolean)
    return `${url.origin}/${first ?? ''}${rest.length || url.search ? '/…' : ''}`
  } catch {
    return '…'
  }
}
