import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'

/** Read at most this much of a body nobody read; past it, cancel the rest. */
const DRAIN_LIMIT_BYTES = 1024 * 1024

/**
 * Reads (or cancels) whatever request body a handler left unread: an early answer (403, 413,
 * 415, 429, a GET or PUT the site ignores) otherwise leaves the body on the connection, and
 * workerd under `wrangler dev` then fails the next request on it ("Your worker restarted
 * mid-request", workers-sdk #5095) or stops serving altogether. One middleware, outermost, so
 * no handler can forget.
 */
export function drainBody(): MiddlewareHandler<AppEnv> {
  return async function drainBody(c, next) {
    try {
      await next()
    } finally {
      const body = c.req.raw.body
      if (body && !c.req.raw.bodyUsed && !body.locked) await drain(body)
    }
  }
}

async function drain(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader()
  let read = 0
  try {
    while (read < DRAIN_LIMIT_BYTES) {
      const { done, value } = await reader.read()
      if (done) return
      read += value.byteLength
    }
    await reader.cancel()
  } catch {
    // the client went away: nothing left to drain
  } finally {
    reader.releaseLock()
  }
}
