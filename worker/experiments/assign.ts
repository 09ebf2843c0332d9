/**
 * Which variant a visitor sees: a deterministic hash of their id and the experiment's seed, so
 * the same on every visit and every edge, with nothing stored. GrowthBook's hashing, version 2
 * (growthbook/packages/sdk-js src/util.ts `hash`): FNV-1a 32-bit of FNV-1a 32-bit of
 * seed + id, to four decimal places, which spreads ids that differ in one character evenly.
 * A bucket, not a secret: no cryptographic hash is needed, and this one is synchronous, so the
 * isolate's memory can answer a page before any await (render/edge-memory.ts).
 */
function fnv1a32(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** The visitor's place in [0, 1) for this seed. */
export const bucket = (seed: string, visitor: string) =>
  (fnv1a32(String(fnv1a32(seed + visitor))) % 10_000) / 10_000

export type Variant = 'A' | 'B'

/** B for the first `splitB` percent of the buckets, A for the rest. */
export const variantOf = (seed: string, splitB: number, visitor: string): Variant =>
  bucket(seed, visitor) < splitB / 100 ? 'B' : 'A'
