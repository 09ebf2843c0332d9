/** SHA-256 of a text, as hex: how one-time tokens, suppressed addresses and IPs are kept. */
export async function sha256Hex(text: string) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** The key under which an address is suppressed or found: SHA-256 of it, lower-cased. */
export const emailHash = (address: string) => sha256Hex(address.trim().toLowerCase())
