// Production alias of `react-dom/server` (vite.config.ts). Two reasons for a module of our own:
//  - @hono/react-renderer imports renderToString too, which would bundle a second renderer;
//    pages are only ever streamed.
//  - React's Node build (it has renderToReadableStream too, on web streams) writes each piece
//    of HTML into one 4 KB buffer with TextEncoder.encodeInto; the edge build allocates a new
//    Uint8Array per piece, thousands per page, and the garbage collection that follows was a
//    third of the render's CPU. Measured by `npm run bench`: home render 9.7 → 6.5 ms mean in
//    Node, 7.4 → 5.5 ms in workerd. It needs `nodejs_compat` (util, crypto, stream).
// @ts-expect-error the CommonJS build has no types; reached by path (not in the exports map)
export { renderToReadableStream } from '../node_modules/react-dom/cjs/react-dom-server.node.production.js'

export function renderToString(): never {
  throw new Error('Pages are streamed: renderToString is not part of the worker bundle')
}
