import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'

/**
 * The worker tests' webhook receiver (a stand-in for an agency's CRM or Slack): what it
 * answers depends on the path's first segment, and it records every request. The Worker under
 * test reaches it at WEBHOOK_RECEIVER_URL (vitest.worker.config.ts).
 *
 * - `/ok/…` 200
 * - `/flaky/…` 500 to the first request of each webhook-id, 200 after; `/flaky-3/…` to the
 *   first three
 * - `/fail/…` 500, always
 * - `/gone/…` 410
 * - `/redirect/…` 302 to `/ok/redirected` on 127.0.0.1 (never to be followed)
 * - `/busy/…` 429 with Retry-After: 120
 * - `/slow/…` no answer until the client gives up
 * - `GET /__requests?path=…` the requests to that path, oldest first:
 *   `{ path, headers, body }[]`
 */
export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
}

export function startWebhookReceiver(port: number) {
  const received: Received[] = []
  const seen = new Map<string, number>()
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (req.method === 'GET' && url.pathname === '/__requests') {
      const path = url.searchParams.get('path')
      res.setHeader('Content-Type', 'application/json')
      res.end(JSON.stringify(received.filter((r) => !path || r.path === path)))
      return
    }
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => {
      received.push({ path: url.pathname, headers: req.headers, body })
      const kind = url.pathname.split('/')[1]
      const id = `${url.pathname} ${String(req.headers['webhook-id'])}`
      if (kind === 'slow') return
      const flaky = /^flaky(?:-(\d+))?$/.exec(kind)
      if (flaky) {
        const count = (seen.get(id) ?? 0) + 1
        seen.set(id, count)
        const failing = count <= Number(flaky[1] ?? 1)
        res.statusCode = failing ? 500 : 200
        return res.end(failing ? 'not now' : 'ok')
      }
      if (kind === 'fail') return ((res.statusCode = 500), res.end('broken'))
      if (kind === 'gone') return ((res.statusCode = 410), res.end('gone'))
      if (kind === 'busy') {
        res.statusCode = 429
        res.setHeader('Retry-After', '120')
        return res.end('slow down')
      }
      if (kind === 'redirect') {
        res.statusCode = 302
        res.setHeader('Location', `http://127.0.0.1:${port}/ok/redirected`)
        return res.end()
      }
      res.end('ok')
    })
  })
  return new Promise<{ stop: () => Promise<void> }>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () =>
      resolve({
        stop: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      }),
    )
  })
}

/** The global setup: on the port vitest.worker.config.ts gave the worker. */
export default async function setup() {
  const receiver = await startWebhookReceiver(Number(process.env.TEST_WEBHOOK_PORT))
  return () => receiver.stop()
}
