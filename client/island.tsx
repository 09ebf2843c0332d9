import { createContext, useContext, type ComponentType, type ReactElement } from 'react'
import { HYDRATE_ATTR, ISLAND_ATTR, PROPS_ATTR, type HydrateWhen } from './island-markup'

/** JSON-only values: what survives the trip from the server render to the browser. */
export type Serializable =
  | string
  | number
  | boolean
  | null
  | Serializable[]
  | { [key: string]: Serializable | undefined }

export interface Island<P> {
  (props: P): React.JSX.Element
  island: { name: string; Component: ComponentType<P> }
}

/**
 * The server's island HTML, when an island with these props was rendered before: an island is a
 * function of its props alone (the browser hydrates it from them), so the HTML of one is the
 * HTML of all (worker/render/island-html.ts). Never provided in the browser.
 */
export type IslandHtml = (
  name: string,
  json: string,
  part: () => ReactElement,
) => string | undefined
export const IslandHtmlContext = createContext<IslandHtml | null>(null)

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
    const json = JSON.stringify(props)
    const markerProps = {
      [ISLAND_ATTR]: name,
      [PROPS_ATTR]: json,
      [HYDRATE_ATTR]: hydrate === 'visible' ? undefined : hydrate,
    }
    const html = useContext(IslandHtmlContext)?.(name, json, () => <Component {...props} />)
    // the same element either way: React's HTML of the component, pasted or rendered now
    if (html !== undefined)
      return (
        <div {...markerProps} className="contents" dangerouslySetInnerHTML={{ __html: html }} />
      )
    return (
      <div {...markerProps} className="contents">
        <Component {...props} />
      </div>
    )
  }
  IslandMarker.island = { name, Component }
  return IslandMarker
}
