import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { AppEnv } from '../env'
import { renderToReadableStream } from 'react-dom/server'

/**
 * A part of a page as HTML, by the pages' own renderer (react-dom/server: worker/react-dom-server.ts
 * in the build): the page tail and the islands that each isolate renders once and pastes.
 */
export async function renderToHtml(node: ReactNode) {
  return new Response(await renderToReadableStream(node)).text()
}

/**
 * Runs a part's render to the end: in the request's waitUntil where there is one (the bench's
 * Node renders have none; it finishes on its own there).
 */
export function finishing(c: Context<AppEnv>, work: Promise<void>) {
  try {
    c.executionCtx.waitUntil(work)
  } catch {
    // no execution context
  }
}
