/**
 * Password hashing with PBKDF2-SHA256 from WebCrypto. 100,000 iterations is the most workerd
 * allows; each user has a random 16-byte salt; comparison is constant-time.
 */
export const PBKDF2_ITERATIONS = 100_000

const b64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
const unb64 = (s: string) =>
  Uint8Array.from(atob(s), (c) => c.charCodeAt(0)) as Uint8Array<ArrayBuffer>

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number) {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(password),
    'PBKDF2',
    false,
    ['deriveBits'],
  )
  return crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256)
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16))
  const hash = await derive(password, salt, PBKDF2_ITERATIONS)
  return `pbkdf2_sha256$${PBKDF2_ITERATIONS}$${b64(salt)}$${b64(hash)}`
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split('$')
  if (scheme !== 'pbkdf2_sha256' || !salt || !hash) return false
  const actual = new Uint8Array(await derive(password, unb64(salt), Number(iterations)))
  const expected = unb64(hash)
  // workerd's constant-time comparison (not in the DOM typings this project also loads)
  const subtle = crypto.subtle as unknown as {
    timingSafeEqual(a: ArrayBufferView, b: ArrayBufferView): boolean
  }
  return actual.byteLength === expected.byteLength && subtle.timingSafeEqual(actual, expected)
}
