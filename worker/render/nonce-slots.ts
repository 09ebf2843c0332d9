import { Buffer } from 'node:buffer'
import { NONCE_PLACEHOLDER } from './cache-key'

/**
 * Each response's own nonce in a page rendered for the edge cache. The renderer writes
 * NONCE_PLACEHOLDER where a nonce belongs; it is new with every build and only the renderer
 * writes it, into `nonce` attributes, so no page content can carry it. Finding it in the bytes
 * is therefore the same as finding every nonce attribute, without parsing the page again (an
 * HTMLRewriter did that on every miss, with a tee to keep the copy: about a fifth of a
 * home-page miss, npm run bench). It is as long as a nonce, so a nonce is written over it in
 * place, in one copy of the page.
 */

/** A page as kept: as rendered, and where its placeholders (the nonce's slots) start. */
export interface Copy {
  page: Uint8Array
  slots: number[]
  type: string
  storedAt: number
}

const encoder = new TextEncoder()
const PLACEHOLDER = Buffer.from(NONCE_PLACEHOLDER)
const SLOT = PLACEHOLDER.byteLength

/** Where the placeholders start in `bytes`, found in the bytes as they are (no decoding). */
function placeholdersIn(bytes: Uint8Array) {
  const page = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const found: number[] = []
  for (let at = page.indexOf(PLACEHOLDER); at !== -1; at = page.indexOf(PLACEHOLDER, at + SLOT))
    found.push(at)
  return found
}

/** A copy of `bytes` with `value` written over the placeholder at each of `slots`. */
function written(bytes: Uint8Array, slots: number[], value: Uint8Array) {
  if (value.byteLength === SLOT) {
    const out = bytes.slice()
    for (const at of slots) out.set(value, at)
    return out
  }
  // a nonce of another length (none is made today): the pieces between move
  const out = new Uint8Array(bytes.byteLength + slots.length * (value.byteLength - SLOT))
  let from = 0
  let to = 0
  for (const at of slots) {
    out.set(bytes.subarray(from, at), to)
    to += at - from
    out.set(value, to)
    to += value.byteLength
    from = at + SLOT
  }
  out.set(bytes.subarray(from), to)
  return out
}

/**
 * A page as kept, from its bytes as rendered (placeholders in; the copy is theirs from now) and
 * where they are, when known (found as the page streamed out), else looked for.
 */
export const copyOf = (
  page: Uint8Array,
  type: string,
  storedAt: number,
  slots = placeholdersIn(page),
): Copy => ({ page, slots, type, storedAt })

/** The copy's page with this response's nonce where the placeholders are. */
export const withNonceJoined = (copy: Copy, nonce: string) =>
  written(copy.page, copy.slots, encoder.encode(nonce))

const joined = (parts: Uint8Array[]) => {
  if (parts.length === 1) return parts[0]
  const out = new Uint8Array(parts.reduce((n, part) => n + part.byteLength, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

/**
 * How the renderer encodes a page meant for the edge cache (react-dom-server.ts's `output`):
 * each flush of HTML is encoded once, as rendered, and the chunk sent is a copy with `nonce`
 * written over its placeholders. React writes a nonce as one piece and flushes whole pieces, so
 * a placeholder never straddles two flushes. The page as rendered and where its placeholders
 * start go to `whole`'s callback once the last flush has gone (at once if it has); a render cut
 * short (the visitor left, an error) never gets there, so it is never kept. Doing this on the
 * string's way to bytes spares a stream stage of its own: a TransformStream that searched every
 * chunk again cost a twentieth of a home-page miss.
 */
export function nonceOutput(nonce: string) {
  const value = encoder.encode(nonce)
  const rendered: Uint8Array[] = []
  const slots: number[] = []
  let size = 0
  let page: Uint8Array | undefined
  let keep: ((page: Uint8Array, slots: number[]) => void) | undefined
  const kept = () => {
    // the visitor's page is whole whatever keeping it does
    try {
      keep?.(page!, slots)
    } catch (err) {
      console.error('edge cache: keeping a copy failed', err)
    }
  }
  return {
    /** Whether a render has written through it. */
    get used() {
      return rendered.length > 0
    },
    encode(html: string) {
      const bytes = encoder.encode(html)
      const found = placeholdersIn(bytes)
      for (const at of found) slots.push(size + at)
      size += bytes.byteLength
      rendered.push(bytes)
      // a copy either way: the bytes themselves stay the kept page's
      return written(bytes, found, value)
    },
    end() {
      page = joined(rendered)
      kept()
    },
    whole(then: (page: Uint8Array, slots: number[]) => void) {
      keep = then
      if (page) kept()
    },
  }
}
