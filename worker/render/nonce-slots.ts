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
 * A render on its way out, streaming: every placeholder becomes `nonce`, chunk by chunk (the
 * end of a chunk that may begin a placeholder is held back for the next). `keep`, if given,
 * gets the whole page as rendered, placeholders in, and where they start, once the last chunk
 * has passed; a page whose visitor left before its end is not kept (the next visitor's render is).
 */
export function writingNonce(nonce: string, keep?: (page: Uint8Array, slots: number[]) => void) {
  const value = encoder.encode(nonce)
  const rendered: Uint8Array[] = []
  const slots: number[] = []
  let held = new Uint8Array(0)
  // where `held` starts in the page
  let offset = 0
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (keep) rendered.push(chunk)
      const bytes = held.byteLength ? joined([held, chunk]) : chunk
      const found = placeholdersIn(bytes)
      for (const at of found) slots.push(offset + at)
      const after = found.length ? found[found.length - 1] + SLOT : 0
      const until = Math.max(after, bytes.byteLength - (SLOT - 1))
      held = bytes.slice(until)
      offset += until
      // a copy either way: the chunk itself stays the kept page's
      if (until) controller.enqueue(written(bytes.subarray(0, until), found, value))
    },
    flush(controller) {
      // shorter than a placeholder: none in it
      if (held.byteLength) controller.enqueue(held)
      // the visitor's page is whole whatever keeping it does
      try {
        keep?.(joined(rendered), slots)
      } catch (err) {
        console.error('edge cache: keeping a copy failed', err)
      }
    },
  })
}
