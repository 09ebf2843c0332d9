// Production alias of `react-dom/server` (vite.config.ts). Two reasons for a module of our own:
//  - @hono/react-renderer imports renderToString too, which would bundle a second renderer;
//    pages are only ever streamed.
//  - The cost of turning the page into bytes. React writes a page as a few thousand small
//    pieces (a tag's name, `="`, an attribute's value…). Its edge build allocates a
//    Uint8Array per piece, and the garbage collection that follows was a third of the render's
//    CPU; its Node build copies each piece into a 4 KB buffer with TextEncoder.encodeInto,
//    one native call per piece, still a seventh of the home page's CPU. Its Bun build hands
//    the pieces over as strings: here they are joined and encoded once per flush of React's
//    (the whole page, unless a Suspense boundary makes it wait), through its
//    renderToPipeableStream, which takes any object with write(), flush() and end(). The same
//    renderer (Fizz) makes the same HTML in every build. It needs `nodejs_compat` (util,
//    crypto, stream, Buffer). Measured by `npm run bench`: README, "Performance".
//    Whoever keeps a copy of the page can take over that encoding (`output`): the edge cache
//    writes each response's nonce in while the HTML is still a string (render/nonce-slots.ts).
import type { ReactNode } from 'react'
import type { RenderToReadableStreamOptions } from 'react-dom/server'
// @ts-expect-error the CommonJS build has no types; reached by path (not in the exports map)
import { renderToPipeableStream } from '../node_modules/react-dom/cjs/react-dom-server.bun.production.js'

interface Pipeable {
  pipe(destination: object): void
  abort(reason?: unknown): void
}
const render = renderToPipeableStream as (
  children: ReactNode,
  options: Record<string, unknown>,
) => Pipeable

/** Turns each flush of the page's HTML into the bytes sent; `end` once the last has gone. */
export interface PageOutput {
  encode(html: string): Uint8Array
  end(): void
}

declare module 'react-dom/server' {
  interface RenderToReadableStreamOptions {
    /** Encodes the HTML instead of a plain TextEncoder (this module's own option). */
    output?: PageOutput
  }
}

/** React's renderToReadableStream (the options pages use), resolved once the shell is ready. */
export function renderToReadableStream(
  children: ReactNode,
  { signal, output, ...options }: RenderToReadableStreamOptions = {},
): Promise<ReadableStream<Uint8Array> & { allReady: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let allReadyDone: () => void = () => {}
    let allReadyFailed: (error: unknown) => void = () => {}
    const allReady = new Promise<void>((res, rej) => {
      allReadyDone = res
      allReadyFailed = rej
    })
    allReady.catch(() => {})
    const encoder = new TextEncoder()
    const pipeable = render(children, {
      ...options,
      onAllReady: () => allReadyDone(),
      onShellError: reject,
      onShellReady() {
        let pending = ''
        // after the reader has gone, React's last writes (its abort) go nowhere
        let cancelled = false
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            const send = () => {
              if (pending === '' || cancelled) return
              controller.enqueue(output ? output.encode(pending) : encoder.encode(pending))
              pending = ''
            }
            pipeable.pipe({
              write(chunk: string) {
                pending += chunk
                return true
              },
              flush: send,
              end() {
                send()
                if (cancelled) return
                output?.end()
                controller.close()
              },
              destroy(error: unknown) {
                allReadyFailed(error)
                if (!cancelled) controller.error(error)
              },
              // the drain, error and close events of a Node stream: none here
              on() {},
            })
          },
          cancel(reason) {
            cancelled = true
            pipeable.abort(reason)
          },
        })
        resolve(Object.assign(stream, { allReady }))
      },
    })
    signal?.addEventListener('abort', () => pipeable.abort(signal.reason), { once: true })
  })
}

export function renderToString(): never {
  throw new Error('Pages are streamed: renderToString is not part of the worker bundle')
}
