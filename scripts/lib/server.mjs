// Serves the production build with `wrangler dev` on a free loopback port, as `npm start` does,
// for the browser tests, the bench and Lighthouse.
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { devWorkerConfig } from './dev-worker.mjs'

// Handed out by this process already: two servers asked for ports in a row get different ones.
const handedOut = new Set()

/**
 * A port nothing listens on, for a server started later. Drawn below Linux's ephemeral range
 * (32768–60999), where the kernel never puts an outgoing connection or a socket bound to port 0
 * meanwhile: a port the kernel picked had been taken by the time the mail catcher bound it.
 */
export async function freePort() {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000)
    if (handedOut.has(port)) continue
    const free = await new Promise((resolve) => {
      const srv = createServer()
      srv.once('error', () => resolve(false))
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)))
    })
    if (!free) continue
    handedOut.add(port)
    return port
  }
}

/**
 * A free port kept listening until `release()`: for a server that starts minutes later (the
 * browser tests' servers start after the build, one after another), so that nothing else,
 * another process's freePort included, takes it meanwhile and answers in its place.
 */
export async function reservePort() {
  for (;;) {
    const port = await freePort()
    const holder = createServer()
    const held = await new Promise((resolve) => {
      holder.once('error', () => resolve(false))
      holder.listen(port, '127.0.0.1', () => resolve(true))
    })
    if (held) return { port, release: () => new Promise((resolve) => holder.close(resolve)) }
  }
}

/** `wrangler dev` on the build (through dev-entry.js), on loopback, with its local state and extra vars. */
export function wranglerDev({ port, persistTo, vars = {} }) {
  return [
    'npx',
    'wrangler',
    'dev',
    '--config',
    devWorkerConfig(),
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--persist-to',
    persistTo,
    ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
  ]
}

/** Runs a command to its end without holding the event loop; rejects on a non-zero exit. */
export function run(cmd, args, { stdio = 'inherit' } = {}) {
  return new Promise((resolve, reject) =>
    spawn(cmd, args, { stdio }).on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (${code})`)),
    ),
  )
}

/** Applies the migrations to the local D1 in `persistTo`. */
export const migrate = (persistTo) =>
  run(
    'npx',
    [
      ...['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--config', 'wrangler.toml'],
      ...['--persist-to', persistTo],
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  )

/**
 * Migrates the D1 in `persistTo` (unless `migrated: false`: a database without its tables),
 * starts wrangler dev on the build (on `port`, or a free one), resolves once it answers.
 * `quiet`: its log is dropped (a server made to fail, whose errors are the point).
 * `background`: the server runs at the lowest CPU priority, so that on a small machine it does
 * not take turns with the browser being measured (in production it is not on the phone).
 */
export async function startServer({
  persistTo,
  vars = {},
  background = false,
  port,
  migrated = true,
  quiet = false,
}) {
  if (migrated) await migrate(persistTo)
  port ??= await freePort()
  const command = [
    ...(background ? ['nice', '-n', '19'] : []),
    ...wranglerDev({ port, persistTo, vars }),
    '--log-level',
    'warn',
  ]
  // Detached: npx leaves wrangler and workerd behind unless the whole process group is ended.
  const child = spawn(command[0], command.slice(1), {
    detached: true,
    stdio: ['ignore', quiet ? 'ignore' : 'inherit', quiet ? 'ignore' : 'inherit'],
    // the local explorer API is how the browser tests read D1 (test/e2e/d1.ts); no telemetry
    // from it or wrangler (the machine may be offline)
    env: {
      ...process.env,
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      X_LOCAL_EXPLORER: 'true',
      WRANGLER_SEND_METRICS: 'false',
    },
  })
  const baseURL = `http://127.0.0.1:${port}`
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
  if (await answers(baseURL)) return { baseURL, stop }
  stop()
  throw new Error(`wrangler dev did not answer on ${baseURL}`)
}

/** Whether the site at `baseURL` answers within `ms` (a static file: no render, no D1). */
export async function answers(baseURL, ms = 180_000) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    try {
      // the site's icon, not any answer: a stand-in that took the port answers "ok" to all
      const res = await fetch(baseURL + '/favicon.svg')
      if (res.ok && (res.headers.get('content-type') ?? '').includes('svg')) return true
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  return false
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/**
 * The tests' browser: Chromium's headless shell (Debian's chromium-headless-shell, the build
 * Playwright itself runs headless), the same engine and flags without the desktop browser around
 * it. Measured here, twelve page loads of the site took 23 s of CPU in full Chromium and 6.6 s
 * in the shell, on a suite that Chromium kept two cores busy for. Lighthouse, the bench's vitals
 * and the screenshots keep full Chromium (CHROMIUM_PATH), the browser a visitor has.
 */
export const TEST_BROWSER_PATH = process.env.TEST_BROWSER_PATH ?? '/usr/bin/chromium-headless-shell'
