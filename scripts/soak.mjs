// `npm run soak`: bad and good posts alternated against the site as `npm start` serves it
// (wrangler dev on the production build), then requests that used to stop the server. Every
// good post must be answered and stored; nothing may answer 503; the site must still answer.
// (`npm test` runs the same kinds of request: test/e2e/robustness.test.ts.)
// Bounded: 80 posts and 24 probes, loopback only. SKIP_BUILD=1 reuses dist/.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { queryD1 } from './lib/d1.mjs'
import { keepAlive as keptConnection, send as sendRequest } from './lib/http-probe.mjs'
import { startServer } from './lib/server.mjs'

const STATE = '.wrangler/soak-state'
const ROUNDS = 40

/** One request's status (or how its connection failed); `fresh`: on a new connection. */
const send = async (base, { fresh = true, agent, ...options }) =>
  (await sendRequest(base, { ...options, agent: fresh ? undefined : agent })).status

const json = { 'Content-Type': 'application/json' }
const LIMITED_IP = '203.0.113.250'
// A different client address per good post, as visitors are: the per-IP lead limit is not
// what this run measures (wrangler dev passes CF-Connecting-IP through on loopback).
const goodPost = (i) => ({
  path: '/api/email-signup',
  headers: { ...json, 'CF-Connecting-IP': `198.51.100.${i}` },
  body: JSON.stringify({ name: 'Soak', email: `soak-${i}@example.org`, source: 'website' }),
})
const BAD = [
  { name: 'oversize (413)', ...goodPost(0), body: JSON.stringify({ name: 'x'.repeat(20_000) }) },
  { name: 'text/plain (415)', ...goodPost(0), headers: { 'Content-Type': 'text/plain' } },
  {
    name: 'cross-site (403)',
    ...goodPost(0),
    headers: { ...json, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
  },
  { name: 'malformed JSON (400)', ...goodPost(0), body: '{"name":' },
  {
    // an address that spent its 10 posts a minute before the run
    name: 'rate limited (429)',
    path: '/api/email-signup',
    headers: { ...json, 'CF-Connecting-IP': LIMITED_IP },
    body: JSON.stringify({ name: 'Soak', email: 'limited@example.org', source: 'website' }),
  },
]

const tally = (map, key) => map.set(String(key), (map.get(String(key)) ?? 0) + 1)

async function main() {
  if (!process.env.SKIP_BUILD)
    execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })
  rmSync(STATE, { recursive: true, force: true })
  const server = await startServer({ persistTo: STATE })
  const started = Date.now()
  try {
    for (let i = 0; i < 10; i++)
      await send(server.baseURL, {
        path: '/api/newsletter',
        headers: { ...json, 'CF-Connecting-IP': LIMITED_IP },
        body: JSON.stringify({ email: `limit-${i}@example.org` }),
      })
    const bad = new Map()
    const good = new Map()
    const keepAlive = keptConnection()
    for (let i = 1; i <= ROUNDS; i++) {
      const b = BAD[i % BAD.length]
      // half the rounds on one keep-alive connection, half on a new connection each time
      const fresh = i % 2 === 0
      tally(bad, await send(server.baseURL, { ...b, fresh, agent: keepAlive }))
      tally(good, await send(server.baseURL, { ...goodPost(i), fresh, agent: keepAlive }))
    }
    keepAlive.destroy()
    const probes = new Map()
    for (let i = 0; i < 12; i++)
      tally(probes, `PUT / ${await send(server.baseURL, { method: 'PUT', path: '/', body: 'hi' })}`)
    for (let i = 0; i < 12; i++)
      tally(probes, `GET / ${await send(server.baseURL, { method: 'GET', path: '/', body: 'hi' })}`)
    const after = await send(server.baseURL, { method: 'GET', path: '/' })
    const [{ stored }] = queryD1(
      "SELECT COUNT(*) AS stored FROM subscribers WHERE email LIKE 'soak-%'",
      { persistTo: STATE },
    )
    const report = {
      seconds: Math.round((Date.now() - started) / 1000),
      bad: Object.fromEntries(bad),
      good: Object.fromEntries(good),
      probes: Object.fromEntries(probes),
      siteAfterwards: after,
      goodStored: stored,
    }
    console.log(JSON.stringify(report, null, 2))
    const ok = good.get('200') === ROUNDS && stored === ROUNDS && after === 200 && !bad.has('503')
    console.log(ok ? 'soak: ok' : 'soak: FAILED')
    process.exitCode = ok ? 0 : 1
  } finally {
    server.stop()
  }
}

await main()
