// `npm run smoke -- URL`: a read-only check of a running site, for an operator after a deploy (or
// `npm run deploy`, which ends with it). Stores nothing: the one post is refused before it is
// read. Exits 0, or lists what failed and exits 1.
//   every page of the sitemap in its six languages answers 200, with the security headers
//   the auth service's JWKS and health; the booking slots (D1 reachable)
//   the hashed script and stylesheet are immutable; a bad API body gets a 400 in JSON
const base = (process.argv[2] ?? process.env.BASE_URL ?? 'http://127.0.0.1:8787').replace(/\/$/, '')
// isbot's word for it: the site counts no visit
const headers = { 'User-Agent': 'growth-agency-smoke (bot)', 'Accept-Language': 'en' }
const failures = []
let checks = 0

const check = (ok, what) => {
  checks++
  if (!ok) failures.push(what)
  return ok
}

async function get(path, init = {}) {
  try {
    const res = await fetch(base + path, {
      redirect: 'manual',
      ...init,
      headers: { ...headers, ...init.headers },
    })
    return { res, text: await res.text() }
  } catch (err) {
    return { res: null, text: '', error: String(err?.cause?.code ?? err?.message ?? err) }
  }
}

/** The answer's body as JSON, or null when it is not JSON (the check then says so). */
function json({ text }) {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

const answered = ({ res, error }) => (res ? `answered ${res.status}` : `no answer (${error})`)

/** The headers every page carries (worker/middleware/security.ts). */
function securityHeaders(path, res) {
  const h = (name) => res.headers.get(name) ?? ''
  const csp = h('content-security-policy')
  const script = csp.match(/script-src ([^;]*)/)?.[1] ?? ''
  const missing = [
    !/'nonce-[^']+'/.test(script) && 'CSP script-src nonce',
    script.includes("'unsafe-inline'") && "CSP script-src without 'unsafe-inline'",
    !/frame-ancestors/.test(csp) && 'CSP frame-ancestors',
    !/max-age=\d+/.test(h('strict-transport-security')) && 'HSTS',
    h('x-content-type-options') !== 'nosniff' && 'nosniff',
    !h('referrer-policy') && 'Referrer-Policy',
  ].filter(Boolean)
  check(missing.length === 0, `${path}: security headers missing: ${missing.join(', ')}`)
}

// Pages: the sitemap's, every language (its <loc>s, asked of this site whatever SITE_URL says).
const sitemap = await get('/sitemap.xml')
const pages = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map(({ 1: loc }) => {
  const url = new URL(loc.replaceAll('&amp;', '&'))
  return url.pathname + url.search
})
if (
  check(
    sitemap.res?.status === 200 && pages.length >= 6,
    `/sitemap.xml: ${answered(sitemap)}, ${pages.length} pages`,
  )
) {
  const queue = [...pages]
  await Promise.all(
    Array.from({ length: 6 }, async () => {
      for (let path = queue.shift(); path; path = queue.shift()) {
        const page = await get(path)
        // a page from the edge's last copy or the content's snapshot: D1 did not answer it
        const source = page.res?.headers.get('x-content-source')
        const from = source ? ` from the ${source} copy: is D1 reachable?` : ''
        if (check(page.res?.status === 200 && !source, `${path}: ${answered(page)}${from}`))
          securityHeaders(path, page.res)
      }
    }),
  )
}

// Sign-in: the built-in service's keys and health.
const jwks = await get('/auth/v1/.well-known/jwks.json')
const keys = json(jwks)?.keys
// locally the first sign-in makes the key (into D1); a deployed site signs with AUTH_SIGNING_KEY
const local = ['localhost', '127.0.0.1', '[::1]'].includes(new URL(base).hostname)
check(
  jwks.res?.status === 200 && Array.isArray(keys) && (local || keys.length > 0),
  `auth JWKS: ${answered(jwks)} with ${keys?.length ?? 'no'} keys${keys?.length === 0 ? ' (is AUTH_SIGNING_KEY set?)' : ''}`,
)
const health = await get('/auth/v1/health')
check(health.res?.status === 200, `auth health: ${answered(health)}`)

// D1: the booking slots read the bookings table.
const slots = await get('/api/bookings/slots')
const slotList = json(slots)?.slots
check(
  slots.res?.status === 200 && Array.isArray(slotList),
  `D1 (booking slots /api/bookings/slots): ${answered(slots)}${slots.res?.status >= 500 ? ': is the DB binding migrated and reachable?' : ''}`,
)

// Static files: the home page's hashed script and stylesheet.
const home = await get('/')
const assets = [...home.text.matchAll(/(?:src|href)="(\/assets\/[\w.-]+\.(?:js|css))"/g)].map(
  (m) => m[1],
)
if (check(assets.length > 0, '/: no hashed script or stylesheet found'))
  for (const path of new Set(assets)) {
    const asset = await get(path)
    const cache = asset.res?.headers.get('cache-control') ?? ''
    check(
      asset.res?.status === 200 && cache.includes('immutable'),
      `${path}: ${answered(asset)}, Cache-Control "${cache}"`,
    )
  }

// A bad body: refused in JSON, nothing stored.
const bad = await get('/api/email-signup', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Origin: base },
  body: '{"email": 5}',
})
const badJson = typeof json(bad)?.error === 'string'
check(
  bad.res?.status === 400 && badJson,
  `a bad API body: ${answered(bad)}${badJson ? '' : ', not a JSON error'}`,
)

if (failures.length) {
  console.log(`smoke ${base}: ${failures.length} of ${checks} checks failed`)
  for (const f of failures) console.log(`  FAIL ${f}`)
  process.exit(1)
}
console.log(`smoke ${base}: all ${checks} checks passed (${pages.length} pages)`)
