// `npm run smoke -- URL`: a read-only check of a running site, for an operator after a deploy (or
// `npm run deploy`, which runs it on each new version). Stores nothing: the one post is refused
// before it is read. Exits 0, or lists what failed and exits 1.
//   every page of the sitemap in its six languages answers 200, with the security headers
//   the auth service's JWKS and health; the booking slots (D1 reachable)
//   the hashed script and stylesheet are immutable; a bad API body gets a 400 in JSON
// With `--version ID` and DEPLOY_CHECK_TOKEN (what the deploy gave that version), first
// /__deploy/status (worker/deploy-status.ts), asked again for the first minute until that
// version answers: every migration applied, the queues bound, the crons' last runs, R2, the
// mail provider (`--allow-no-mail`: not required), LINK_SECRET and the signing key.
import { readdirSync } from 'node:fs'
import { wranglerConfig } from './lib/cloudflare.mjs'

const argv = process.argv.slice(2)
const base = (
  argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--version') ??
  process.env.BASE_URL ??
  'http://127.0.0.1:8787'
).replace(/\/$/, '')
const version = argv.includes('--version') ? argv[argv.indexOf('--version') + 1] : undefined
const token = process.env.DEPLOY_CHECK_TOKEN
/** Each request's limit: a hanging answer is a failure, not a wait. */
const REQUEST_MS = 15_000
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
      signal: AbortSignal.timeout(REQUEST_MS),
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

// The version's moving parts, once it answers (a new deploy takes some seconds to reach every
// data centre; the token is that version's alone, so an older one answers 404)
if (version || token) {
  const deadline = Date.now() + Number(process.env.SMOKE_WAIT_SECONDS ?? 60) * 1000
  let status
  for (;;) {
    status = await get('/__deploy/status', { headers: { Authorization: `Bearer ${token}` } })
    if (status.res?.status === 200 && (!version || json(status)?.version === version)) break
    if (Date.now() > deadline) break
    await new Promise((r) => setTimeout(r, 2000))
  }
  const s = json(status)
  if (
    check(
      status.res?.status === 200 && (!version || s?.version === version),
      `/__deploy/status: ${status.res?.status === 200 ? `version ${s?.version} answered, not ${version}` : answered(status)} (is it the version just uploaded?)`,
    )
  ) {
    const files = readdirSync('migrations')
      .filter((f) => f.endsWith('.sql'))
      .sort()
    check(
      s.migrations?.count === files.length && s.migrations?.last === files.at(-1),
      `D1 migrations: ${s.migrations?.count ?? '?'} applied, the last ${s.migrations?.last ?? JSON.stringify(s.migrations)}; the repository has ${files.length}, the last ${files.at(-1)}`,
    )
    const unbound = Object.entries(s.queues ?? {}).filter(([, bound]) => !bound)
    check(
      unbound.length === 0 && Object.keys(s.queues ?? {}).length > 0,
      `queues not bound: ${unbound.map(([q]) => q).join(', ')}`,
    )
    check(s.r2 === true, `R2 (MEDIA): ${JSON.stringify(s.r2)}`)
    if (!argv.includes('--allow-no-mail'))
      check(
        s.mail?.ready === true,
        `mail: MAIL_PROVIDER ${s.mail?.provider} is not ready to send (its secret or host)`,
      )
    check(
      s.links === true,
      `LINK_SECRET: a sealed link did not open again: ${JSON.stringify(s.links)}`,
    )
    check(
      s.signing?.ok === true && (s.environment !== 'production' || s.signing.from !== 'generated'),
      `the signing key: ${JSON.stringify(s.signing)}`,
    )
    const crons = wranglerConfig.triggers?.crons ?? []
    const runs = Array.isArray(s.crons) ? s.crons : []
    check(Array.isArray(s.crons), `the crons' runs could not be read: ${JSON.stringify(s.crons)}`)
    for (const cron of crons) {
      const run = runs.find((r) => r.cron === cron)
      check(!run || run.ok === 1, `cron "${cron}": its last run, ${run?.ran_at}, failed`)
      console.log(`cron "${cron}": ${run ? `last ran ${run.ran_at}` : 'not run yet'}`)
    }
  }
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
console.log(
  `smoke ${base}: all ${checks} checks passed (${pages.length} pages)${version ? ` on version ${version}` : ''}`,
)
