/** Built by the `clientAssets` plugin in vite.config.ts from the client build's manifest. */
declare module 'virtual:client-assets' {
  const assets: {
    /** Module scripts to load, in order (the island entry; in dev also Vite's client). */
    scripts: string[]
    styles: string[]
    /** Font files worth preloading (the Latin text face). */
    fonts: string[]
    /** This build's id: the edge cache's entries carry it (worker/render/edge-cache.ts). */
    build: string
  }
  export default assets
}

/**
 * The one Node API the worker reaches for itself (nodejs_compat, which React's server build
 * needs anyway): Buffer's native search for a byte sequence (render/edge-memory.ts). Declared
 * here rather than with all of Node's types, which would let Node-only APIs into the worker.
 */
declare module 'node:buffer' {
  interface SearchableBytes extends Uint8Array {
    indexOf(value: Uint8Array | number, byteOffset?: number): number
  }
  export const Buffer: {
    from(text: string): SearchableBytes
    from(buffer: ArrayBufferLike, byteOffset: number, length: number): SearchableBytes
  }
}
