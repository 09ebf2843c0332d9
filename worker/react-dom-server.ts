// Production alias of `react-dom/server` (vite.config.ts). Pages are only ever streamed, but
// @hono/react-renderer imports renderToString too, which would bundle a second renderer.
// @ts-expect-error the CommonJS build has no types; reached by path (not in the exports map)
export { renderToReadableStream } from '../node_modules/react-dom/cjs/react-dom-server.edge.production.js'

export function renderToString(): never {
  throw new Error('Pages are streamed: renderToString is not part of the worker bundle')
}
