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
