import type { MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../env'

/** No request of the site carries more (a form's own limit is lower: form-guard.ts). */
export const MAX_REQUEST_BYTES = 1024 * 1024
/**
 * The desk's content forms carry a picture (at most 4 MB, content/media.ts), an article and its
 * social cards (six at most 400 KB each).
 */
export const DESK_CONTENT_BYTES = 7 * 1024 * 1024
const limitOf = (path: string) =>
  path.startsWith('/desk/content/') ? DESK_CONTENT_BYTES : MAX_REQUEST_BYTES

/**
 * Every request's body, whatever its route and method, is at most MAX_REQUEST_BYTES (the desk's
 * content forms DESK_CONTENT_BYTES): a larger one
 * is answered 413 in the visitor's language (the Worker reads the rest off the connection:
 * settle-body.ts). A body without a length (chunked) is read here, up to the limit, so a route
 * that would ignore it still refuses it.
 */
export function requestSize(): MiddlewareHandler<AppEnv> {
  return async function requestSize(c, next) {
    const raw = c.req.raw
    if (!raw.body) return next()
    const limit = limitOf(c.req.path)
    const length = raw.headers.get('Content-Length')
    if (length !== null) {
      if (Number(length) > limit) throw new HTTPException(413)
      return next()
    }
    const body = await readAtMost(raw.body, limit)
    if (!body) throw new HTTPException(413)
    c.req.raw = new Request(raw, { body })
    await next()
  }
}

/** The body's chunks, or null once they pass `limit` bytes (what is left stays unread). */
async function readAtMost(body: ReadableStream<Uint8Array>, limit: number) {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength
      if (size > limit) return null
      chunks.push(read.value)
    }
    return new Blob(chunks)
  } finally {
    reader.releaseLock()
  }
}
