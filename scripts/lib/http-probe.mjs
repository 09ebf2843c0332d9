// Raw HTTP/1.1 requests for the robustness checks (npm run soak, test/e2e/robustness.test.ts):
// a body on any method, sent with a length or chunked, on a new connection or one kept alive.
import { Agent, request } from 'node:http'

/** A connection kept alive and reused by every request given it. */
export const keepAlive = () => new Agent({ keepAlive: true, maxSockets: 1 })

/**
 * One request; resolves to its status and body, or to `dropped (CODE)` when the connection
 * failed (never rejects). `agent`: a keepAlive() connection, else a new connection each time.
 */
export function send(
  base,
  { method = 'POST', path, headers = {}, body = '', chunked = false, agent },
) {
  return new Promise((resolve) => {
    const bytes = Buffer.from(body)
    const req = request(
      new URL(path, base),
      {
        method,
        agent: agent ?? false,
        headers: chunked ? headers : { 'Content-Length': bytes.byteLength, ...headers },
        timeout: 15_000,
      },
      (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            type: res.headers['content-type'] ?? '',
            text: Buffer.concat(chunks).toString(),
          }),
        )
      },
    )
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', (err) => resolve({ status: `dropped (${err.code ?? err.message})` }))
    if (!chunked) return req.end(bytes)
    for (let i = 0; i < bytes.byteLength; i += 64 * 1024)
      req.write(bytes.subarray(i, i + 64 * 1024))
    req.end()
  })
}
