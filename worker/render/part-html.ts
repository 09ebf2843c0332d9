import type { Context } from 'hono'
import type { ReactNode } from 'react'
import { renderToReadableStream } from 'react-dom/server'
import type { AppEnv } from '../env'

/** Parts' HTML by key: the HTML once rendered, the render while it runs. */
export type PartStore = Map<string, string | Promise<void>>

/**
 * A part of a page that each isolate renders once and pastes into later pages (the page tail,
 * the islands): its HTML when `store` has it. Otherwise undefined, and the part is rendered on
 * the side, by the pages' own renderer (react-dom/server: worker/react-dom-server.ts in the
 * build), for the next page; this one renders it as part of itself. `max`: the store keeps that
 * many parts at most, oldest out first.
 */
export function pastedHtml(
  store: PartStore,
  key: string,
  part: () => ReactNode,
  waitUntil: (work: Promise<void>) => void,
  max = Infinity,
): string | undefined {
  const html = store.get(key)
  if (typeof html === 'string') return html
  if (!html) {
    const made = renderToReadableStream(part())
      .then((stream) => new Response(stream).text())
      .then((rendered) => {
        // still wanted (not put out meanwhile)
        if (store.get(key) === made) store.set(key, rendered)
      })
      .catch((err: unknown) => {
        store.delete(key)
        console.error('part of a page: render failed', key.slice(0, 80), err)
      })
    store.set(key, made)
    if (store.size > max) store.delete(store.keys().next().value!)
    waitUntil(made)
  }
  return undefined
}

/**
 * The request's waitUntil, where there is one (the bench's Node renders have none; a part's
 * render finishes on its own there).
 */
export const waitUntilOf = (c: Context<AppEnv>) => (work: Promise<void>) => {
  try {
    c.executionCtx.waitUntil(work)
  } catch {
    // no execution context
  }
}
