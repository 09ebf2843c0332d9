import type { ComponentType } from 'react'

/** JSON-only values: what survives the trip from the server render to the browser. */
export type Serializable =
  string | number | boolean | null | Serializable[] | { [key: string]: Serializable | undefined }

export const ISLAND_ATTR = 'data-island'
export const PROPS_ATTR = 'data-props'
export const HYDRATE_ATTR = 'data-hydrate'

/** When the browser hydrates an island: near the viewport (default), at load, or when idle. */
export type HydrateWhen = 'visible' | 'load' | 'idle'

export interface Island<P> {
  (props: P): React.JSX.Element
  island: { name: string; Component: ComponentType<P> }
}

/**
 * Declares an island once for both sides: on the server it renders the component inside a
 * marker carrying its name and props; `client/entry.ts` finds the marker and hydrates the
 * same component with the same props. The name must match the file name in `islands/`.
 */
export function defineIsland<P extends { [K in keyof P]: Serializable | undefined }>(
  name: string,
  Component: ComponentType<P>,
  hydrate: HydrateWhen = 'visible',
): Island<P> {
  function IslandMarker(props: P) {
    const markerProps = {
      [ISLAND_ATTR]: name,
      [PROPS_ATTR]: JSON.stringify(props),
      [HYDRATE_ATTR]: hydrate === 'visible' ? undefined : hydrate,
    }
    return (
      <div {...markerProps} className="contents">
        <Component {...props} />
      </div>
    )
  }
  IslandMarker.island = { name, Component }
  return IslandMarker
}
