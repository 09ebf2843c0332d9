// An island's marker in the page, apart from island.tsx so that the entry, which finds the
// markers, loads no React until an island hydrates.
export const ISLAND_ATTR = 'data-island'
export const PROPS_ATTR = 'data-props'
export const HYDRATE_ATTR = 'data-hydrate'

/** When the browser hydrates an island: near the viewport (default), at load, or when idle. */
export type HydrateWhen = 'visible' | 'load' | 'idle'
