// A local stand-in for Cloudflare Turnstile, the challenge of the forms that e-mail a typed
// address: its widget script (turnstile-standin-widget.js) and its siteverify API, both answering
// as Cloudflare's test keys do (developers.cloudflare.com/turnstile/troubleshooting/testing/).
// `npm start` and the tests point TURNSTILE_SCRIPT_URL and TURNSTILE_VERIFY_URL at it, the
// machine being offline. Loopback only.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { freePort } from './server.mjs'

/** Cloudflare's test site key that always passes (visible widget). */
export const DUMMY_SITE_KEY = '1x00000000000000000000AA'
/** Cloudflare's test secrets: passes any token; fails every one; answers "already spent". */
export const DUMMY_SECRET = '1x0000000000000000000000000000000AA'
export const FAILING_SECRET = '2x0000000000000000000000000000000AA'
export const SPENT_SECRET = '3x0000000000000000000000000000000AA'
/** The token the test site keys hand out. */
export const DUMMY_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX'

const SCRIPT_PATH = '/turnstile/v0/api.js'
const VERIFY_PATH = '/turnstile/v0/siteverify'
const MAX_BODY = 64 * 1024
/** Cloudflare's longest token; a longer one is refused. */
const MAX_TOKEN = 2048
/** How long Cloudflare answers a retry (the same idempotency key and token) the same. */
const IDEMPOTENCY_MS = 5 * 60_000
/** How long `standin-case:timeout` holds its answer: far past the site's own time limit. */
const HOLD_MS = 30_000
/** The verifications kept for GET /__standin/verifications (a long `npm start`: the latest). */
const KEPT = 10_000

/**
 * Tokens that make one verification (with DUMMY_SECRET) misbehave, so that a test can script a
 * failure without touching the tests running beside it.
 */
const CASES = {
  'standin-case:invalid': () => failure('invalid-input-response'),
  'standin-case:duplicate': () => failure('timeout-or-duplicate'),
  'standin-case:hostname': () => passed({ hostname: 'evil.example' }),
  'standin-case:action': () => passed({ action: 'another-form' }),
}

const failure = (...codes) => ({ success: false, 'error-codes': codes })
/** A pass as the test secret answers one: Cloudflare's test hostname, no action. */
const passed = (overrides = {}) => ({
  success: true,
  'error-codes': [],
  challenge_ts: new Date().toISOString(),
  hostname: 'example.com',
  action: '',
  cdata: '',
  metadata: { interactive: false },
  ...overrides,
})

/** The answer to the fields of one siteverify call, or 'timeout' / 'not-json' for those cases. */
function verify(fields) {
  const { secret, response } = fields
  if (!secret) return failure('missing-input-secret')
  if (![DUMMY_SECRET, FAILING_SECRET, SPENT_SECRET].includes(secret))
    return failure('invalid-input-secret')
  if (!response) return failure('missing-input-response')
  if (response.length > MAX_TOKEN) return failure('invalid-input-response')
  if (secret === FAILING_SECRET) return failure('invalid-input-response')
  if (secret === SPENT_SECRET) return failure('timeout-or-duplicate')
  if (response === 'standin-case:timeout') return 'timeout'
  if (response === 'standin-case:not-json') return 'not-json'
  return (CASES[response] ?? passed)()
}

/** The body's fields, as siteverify reads them: a form (URL-encoded or multipart) or JSON. */
async function fieldsOf(body, contentType = '') {
  if (/\bjson\b/i.test(contentType)) {
    const json = JSON.parse(body.toString('utf8') || 'null')
    if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('not an object')
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, v == null ? '' : String(v)]))
  }
  if (/multipart\/form-data/i.test(contentType)) {
    const form = await new Response(body, { headers: { 'Content-Type': contentType } }).formData()
    return Object.fromEntries([...form].map(([k, v]) => [k, String(v)]))
  }
  return Object.fromEntries(new URLSearchParams(body.toString('utf8')))
}

/** The body, or null once it passes `MAX_BODY` (the rest is not read). */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = []
    let size = 0
    req.on('data', (chunk) => {
      size += chunk.length
      if (size > MAX_BODY) {
        req.removeAllListeners('data')
        req.resume()
        resolve(null)
      } else chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

const sendJSON = (res, status, body) => {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
  res.end(JSON.stringify(body))
}

/**
 * Starts the stand-in on 127.0.0.1:`port` (a free port when not given); resolves once it listens.
 * `scriptURL` is the widget script, `verifyURL` siteverify; `GET /__standin/verifications` lists
 * the siteverify calls received (`?token=`, `?remoteip=`, `?idempotency_key=` filter them).
 */
export async function startTurnstileStandin({ port } = {}) {
  port ??= await freePort()
  const widget = readFileSync(new URL('./turnstile-standin-widget.js', import.meta.url), 'utf8')
  /** What siteverify received, oldest first (the secret's test prefix only). */
  const verifications = []
  /** Answers by secret, idempotency key and token, for Cloudflare's retry behaviour. */
  const answered = new Map()
  /** The held answers (`standin-case:timeout`), ended at stop. */
  const held = new Set()

  async function siteverify(req, res) {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST')
      return sendJSON(res, 405, failure('bad-request'))
    }
    const body = await readBody(req)
    if (body === null) return sendJSON(res, 413, failure('bad-request'))
    let fields
    try {
      fields = await fieldsOf(body, req.headers['content-type'])
    } catch {
      return sendJSON(res, 400, failure('bad-request'))
    }
    const { secret = '', response = '', remoteip = '', idempotency_key = '' } = fields
    verifications.push({
      secret: secret.slice(0, 2),
      token: response.slice(0, MAX_TOKEN),
      remoteip,
      idempotency_key,
      at: new Date().toISOString(),
    })
    if (verifications.length > KEPT) verifications.shift()
    const retry = idempotency_key && `${secret}\n${idempotency_key}\n${response}`
    const earlier = retry && answered.get(retry)
    if (earlier && Date.now() - earlier.at < IDEMPOTENCY_MS) return sendJSON(res, 200, earlier.body)
    const answer = verify(fields)
    if (answer === 'not-json') {
      // as a Cloudflare error page in front of the API
      res.writeHead(502, { 'Content-Type': 'text/html; charset=utf-8' })
      return res.end('<!doctype html><title>502 Bad Gateway</title><h1>502 Bad Gateway</h1>')
    }
    if (answer === 'timeout') {
      const timer = setTimeout(() => {
        held.delete(res)
        sendJSON(res, 200, passed())
      }, HOLD_MS)
      held.add(res)
      res.on('close', () => {
        clearTimeout(timer)
        held.delete(res)
      })
      return
    }
    if (retry) {
      for (const [key, { at }] of answered)
        if (Date.now() - at >= IDEMPOTENCY_MS) answered.delete(key)
      answered.set(retry, { at: Date.now(), body: answer })
    }
    sendJSON(res, 200, answer)
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (url.pathname === SCRIPT_PATH) {
      res.writeHead(200, {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Access-Control-Allow-Origin': '*',
        'Cache-Control': 'no-store',
      })
      return res.end(req.method === 'HEAD' ? undefined : widget)
    }
    if (url.pathname === VERIFY_PATH)
      return siteverify(req, res).catch(() => {
        if (!res.headersSent) sendJSON(res, 500, failure('internal-error'))
      })
    if (url.pathname === '/__standin/verifications' && req.method === 'GET') {
      const filters = [...url.searchParams]
      return sendJSON(
        res,
        200,
        verifications.filter((v) => filters.every(([k, value]) => v[k] === value)),
      )
    }
    sendJSON(res, 404, { error: 'not found' })
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    scriptURL: `${url}${SCRIPT_PATH}`,
    verifyURL: `${url}${VERIFY_PATH}`,
    stop: () =>
      new Promise((resolve) => {
        for (const res of held) res.destroy()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
