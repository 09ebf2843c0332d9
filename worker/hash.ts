/**
 * SHA-256 of a text (or bytes), as hex: how one-time tokens, suppressed addresses and IPs are
 * kept, and the desk's pictures named.
 */
export async function sha256Hex(text: string | Uint8Array) {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)))
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')

/** `n` random bytes as hex: a meeting room's name, the calendar feed's key. */
export const randomHex = (n: number) => hex(crypto.getRandomValues(new Uint8Array(n)))

/** The key under which an address is suppressed or found: SHA-256 of it, lower-cased. */
export const emailHash = (address: string) => sha256Hex(address.trim().toLowerCase())

/** Equal tokens, compared in constant time (their digests: equal lengths). */
export async function sameToken(a: string, b: string) {
  const digest = (s: string) => crypto.subtle.digest('SHA-256', new TextEncoder().encode(s))
  const [x, y] = await Promise.all([digest(a), digest(b)])
  return crypto.subtle.timingSafeEqual(x, y)
}
