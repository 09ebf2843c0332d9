import type { MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../env'

/** No request of the site carries more (a form's own limit is lower: form-guard.ts). */
export const MAX_REQUEST_BYTES = 1024 * 1024

/**
 * Every request's body, whatever its route and method, is at most MAX_REQUEST_BYTES: a larger one
 * is answered 413 in the visitor's language (the Worker reads the rest off the connection:
 * settle-body.ts). A body without a length (chunked) is read here, up to the limit, so a route
 * that would ignore it still refuses it.
 */
export function requestSize(): MiddlewareHandler<AppEnv> {
  return async function requestSize(c, next) {
    const raw = c.req.raw
    if (!raw.body) return next()
    const length = raw.headers.get('Content-Length')
    if (length !== null) {
      if (Number(length) > MAX_REQUEST_BYTES) throw new HTTPException(413)
      return next()
    }
    const bytes = await readAtMost(raw.body, MAX_REQUEST_BYTES)
    if (!bytes) throw new HTTPException(413)
    c.req.raw = new Request(raw, { body: bytes })
    await next()
  }
}

/** The whole body, or null once it passes `limit` bytes (what is left stays unread). */
async function readAtMost(body: ReadableStream<Uint8Array>, limit: number) {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > limit) return null
      chunks.push(value)
    }
  } finally {
    reader.releaseLock()
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}
