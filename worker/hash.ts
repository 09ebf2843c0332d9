/**
 * SHA-256 of a text (or bytes), as hex: how one-time tokens, suppressed addresses and IPs are
 * kept, and the desk's pictures named.
 */
export async function sha256Hex(text: string | Uint8Array) {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text
  const digest = await crypto.subtle.digest('SHA-256', bytes)
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** The key under which an address is suppressed or found: SHA-256 of it, lower-cased. */
export const emailHash = (address: string) => sha256Hex(address.trim().toLowerCase())
