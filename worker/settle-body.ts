/**
 * Reads to its end whatever request body the answer left unread: an early answer (403, 413, 415,
 * 429, a page from the isolate's memory, a GET or PUT the site ignores) otherwise leaves the body
 * on the connection, and `wrangler dev`'s proxy then fails the next request on it ("Your worker
 * restarted mid-request", workers-sdk #5095) or stops serving altogether. Cancelling a large
 * body does the same, so it is read, not cancelled: Cloudflare itself refuses bodies over
 * 100 MB, and a body over the site's limit was already answered 413 (middleware/request-size.ts)
 * without being kept. Called once, by the Worker's fetch handler around everything that answers.
 */
export async function settleBody(request: Request) {
  const body = request.body
  if (!body || body.locked) return
  const reader = body.getReader()
  try {
    for (;;) if ((await reader.read()).done) return
  } catch {
    // the client went away: nothing left to read
  } finally {
    reader.releaseLock()
  }
}
