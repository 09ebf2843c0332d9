// A local webhook catcher (docs/webhooks.md "Receiving"): the endpoint to give the desk's
// integrations page under `npm start` and in the browser tests. Every POST, to any path, is kept
// (its time, path, Standard Webhooks headers and body) and answered 200; GET / lists them newest
// first, each with whether its signature verifies; GET /api/deliveries is the same as JSON.
// Loopback only.
//
// The signature is checked as a receiver would, with the `standardwebhooks` package, on arrival
// (its timestamp must be within 5 minutes then), against the secret of the endpoint whose URL is
// the one the delivery came to: read from the site's local D1 (opened read-only), or from a
// `secrets` function.
import { existsSync, readdirSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Webhook } from 'standardwebhooks'
import { freePort } from './server.mjs'

/** Where `npm start`'s D1 keeps its SQLite file (wrangler dev --persist-to .wrangler/state). */
export const START_D1_DIR = '.wrangler/state/v3/d1/miniflare-D1DatabaseObject'
/** The D1 folder of a server persisted to `persistTo`. */
export const d1DirOf = (persistTo) => `${persistTo}/v3/d1/miniflare-D1DatabaseObject`

/** A delivery larger than this is cut (and fails verification): far above any of the site's. */
const MAX_BODY = 1024 * 1024
/** The deliveries kept, the latest (a long `npm start`). */
const KEPT = 1000

/** The result of a check, as shown and as the API gives it. */
export const VERIFIED = 'verified'
export const NOT_VERIFIED = 'signature does not verify'
export const NO_ENDPOINT = 'no endpoint with this URL'

/**
 * The endpoints' secrets, read from the SQLite files of a local D1 folder: every file with a
 * webhook_endpoints table (the folder also holds miniflare's metadata.sqlite). Read at each
 * delivery, so an endpoint saved a moment ago (or a D1 made after the catcher started) is found.
 */
export function secretsFromD1(dir = START_D1_DIR) {
  return (url) => {
    if (!existsSync(dir)) return []
    const found = []
    for (const file of readdirSync(dir)) {
      if (!file.endsWith('.sqlite') || file === 'metadata.sqlite') continue
      let db
      try {
        // read-only, and waiting out the site's own write of a moment
        db = new DatabaseSync(join(dir, file), { readOnly: true, timeout: 2000 })
        const table = db
          .prepare(
            `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'webhook_endpoints'`,
          )
          .get()
        if (!table) continue
        for (const row of db
          .prepare('SELECT url, secret, previous_secret, previous_until FROM webhook_endpoints')
          .all())
          if (sameUrl(row.url, url)) found.push(row)
      } catch (err) {
        console.error(`Webhook catcher: could not read ${join(dir, file)}: ${err.message}`)
      } finally {
        db?.close()
      }
    }
    return found
  }
}

/** Two URLs are the same endpoint when they are once parsed (a trailing `/` on a bare host). */
function sameUrl(a, b) {
  try {
    return new URL(a).href === new URL(b).href
  } catch {
    return false
  }
}

/**
 * Whether the delivery verifies with one of the endpoints' secrets (the previous one too while
 * a rotation lets it sign). `now` is the arrival: the timestamp's 5 minutes count from there.
 */
export function verifyDelivery(endpoints, body, headers, now = new Date()) {
  if (endpoints.length === 0) return { verification: NO_ENDPOINT }
  const reasons = []
  for (const e of endpoints) {
    const secrets = [e.secret]
    if (e.previous_secret && e.previous_until && Date.parse(e.previous_until) > now.getTime())
      secrets.push(e.previous_secret)
    for (const secret of secrets) {
      try {
        new Webhook(secret).verify(body, headers)
        return { verification: VERIFIED }
      } catch (err) {
        reasons.push(err.message)
      }
    }
  }
  return { verification: NOT_VERIFIED, reason: [...new Set(reasons)].join('; ') }
}

const escapeHtml = (s) =>
  String(s)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')

/** A JSON body indented; anything else as it came. */
function pretty(body) {
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}

function page(deliveries, url) {
  const rows = deliveries
    .toReversed()
    .map((d) => {
      const ok = d.verification === VERIFIED
      return `<article>
<h2><time datetime="${escapeHtml(d.at)}">${escapeHtml(d.at)}</time> POST ${escapeHtml(d.path)}</h2>
<p class="${ok ? 'ok' : 'bad'}"><strong>${escapeHtml(d.verification)}</strong>${
        d.reason ? ` (${escapeHtml(d.reason)})` : ''
      }</p>
<dl>
<dt>webhook-id</dt><dd><code>${escapeHtml(d.headers['webhook-id'] ?? '')}</code></dd>
<dt>webhook-timestamp</dt><dd><code>${escapeHtml(d.headers['webhook-timestamp'] ?? '')}</code></dd>
<dt>webhook-signature</dt><dd><code>${escapeHtml(d.headers['webhook-signature'] ?? '')}</code></dd>
</dl>
<pre>${escapeHtml(pretty(d.body))}</pre>
</article>`
    })
    .join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Webhook catcher (${deliveries.length})</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; margin: 1rem auto; max-width: 60rem; padding: 0 1rem; color: #1a1a1a; }
article { border-top: 1px solid #bbb; padding: 0.5rem 0; }
h2 { font-size: 1rem; margin: 0; }
.ok { color: #0b6b2b; } .bad { color: #a3121f; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 1rem; margin: 0.25rem 0; }
dd { margin: 0; overflow-wrap: anywhere; }
pre { background: #f3f3f3; padding: 0.5rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
</style>
</head>
<body>
<h1>Webhook catcher</h1>
<p>Add <code>${escapeHtml(url)}/</code> and any path as an endpoint in the desk's integrations page; each delivery
appears here, newest first (<a href="/">refresh</a>; as JSON: <a href="/api/deliveries">/api/deliveries</a>).</p>
${rows || '<p>No deliveries yet.</p>'}
</body>
</html>`
}

/**
 * Starts the catcher on `port` (a free one when not given) at 127.0.0.1. The secrets come from
 * `secrets(url)` (the endpoints whose URL that is: `{secret, previous_secret, previous_until}[]`),
 * else from the local D1 in `d1Dir` (default: `npm start`'s).
 *
 * `deliveries()` lists what arrived, oldest first:
 * `{at, path, headers: {'webhook-id', 'webhook-timestamp', 'webhook-signature'}, body,
 * verification, reason?}`. GET /api/deliveries gives the same (`?path=` only those to that path).
 */
export async function startWebhookCatcher({ port, d1Dir, secrets } = {}) {
  port ??= await freePort()
  const lookup = secrets ?? secretsFromD1(d1Dir)
  const url = `http://127.0.0.1:${port}`
  const deliveries = []
  const server = createServer((req, res) => {
    const where = new URL(req.url ?? '/', url)
    if (req.method === 'GET' && where.pathname === '/api/deliveries') {
      const path = where.searchParams.get('path')
      res.setHeader('Content-Type', 'application/json')
      return res.end(JSON.stringify(deliveries.filter((d) => !path || d.path === path)))
    }
    if (req.method === 'GET' && where.pathname === '/') {
      res.setHeader('Content-Type', 'text/html; charset=utf-8')
      res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      return res.end(page(deliveries, url))
    }
    if (req.method !== 'POST') {
      res.statusCode = 405
      res.setHeader('Allow', 'POST')
      return res.end('POST a delivery to any path; GET / lists them\n')
    }
    const chunks = []
    let size = 0
    req.on('data', (chunk) => {
      size += chunk.length
      if (size <= MAX_BODY) chunks.push(chunk)
    })
    req.on('end', () => {
      const at = new Date()
      const body = Buffer.concat(chunks).toString('utf8')
      const headers = {}
      for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
        if (typeof req.headers[name] === 'string') headers[name] = req.headers[name]
      // the URL the site posted to, as the endpoint names it (127.0.0.1 or localhost)
      const target = `http://${req.headers.host ?? `127.0.0.1:${port}`}${where.pathname}${where.search}`
      let check
      try {
        check = verifyDelivery(lookup(target), body, headers, at)
      } catch (err) {
        check = { verification: NOT_VERIFIED, reason: `secrets not read: ${err.message}` }
      }
      deliveries.push({ at: at.toISOString(), path: where.pathname, headers, body, ...check })
      if (deliveries.length > KEPT) deliveries.shift()
      res.end('ok')
    })
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return {
    port,
    url,
    deliveries: () => deliveries.slice(),
    stop: () =>
      new Promise((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}
