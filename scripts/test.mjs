// `npm test`: Chromium and Radicale checked, then one vitest run (worker tests in workerd, browser tests in
// Chromium) and, beside it, formatting, lint, dead code, generated types and type checks.
// Ends with one line "N passed, N failed" for CI.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { RADICALE_PATH } from './lib/radicale.mjs'
import { TEST_BROWSER_PATH } from './lib/server.mjs'

/**
 * What the tests need from Debian, got where we can (root with apt-get), else said in the first
 * second: Chromium's headless shell for the browser tests, Radicale (a second CalDAV server) for
 * the calendar's.
 */
const PACKAGES = [
  {
    name: "Chromium's headless shell",
    path: TEST_BROWSER_PATH,
    apt: 'chromium-headless-shell',
    hint: ' (or set TEST_BROWSER_PATH)',
  },
  { name: 'Radicale', path: RADICALE_PATH, apt: 'radicale', hint: '' },
]
const missing = PACKAGES.filter((p) => !existsSync(p.path))
if (missing.length && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
  console.log(`${missing.map((p) => p.name).join(' and ')} missing: installing with apt-get`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env })
  spawnSync('apt-get', ['install', '-y', '-qq', ...missing.map((p) => p.apt)], {
    stdio: 'inherit',
    env,
  })
}
for (const p of PACKAGES)
  if (!existsSync(p.path)) {
    console.error(
      `The tests need ${p.name} at ${p.path}. Install it with:\n` +
        `  sudo apt-get install -y ${p.apt}${p.hint}, then run npm test again.`,
    )
    console.log('0 passed, 1 failed')
    process.exit(1)
  }

const steps = []
/** Runs a step; resolves to whether it passed. Output is kept and printed whole at its end. */
const run = (name, cmd, args, { stream = false } = {}) =>
  new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(cmd, args, { stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout?.on('data', (d) => (output += d))
    child.stderr?.on('data', (d) => (output += d))
    child.on('close', (status) => {
      if (output.trim()) process.stdout.write(`\n── ${name} ──\n${output}`)
      steps.push({ name, ok: status === 0, seconds: Math.round((Date.now() - started) / 1000) })
      resolve(status === 0)
    })
  })

// `--tests-only [files…]` (npm run test:clock): the tests alone, or only the files named.
const argv = process.argv.slice(2)
const testsOnly = argv.includes('--tests-only')
const filters = argv.filter((a) => a !== '--tests-only')

// the Node every step runs on: the `node` devDependency's (engines, .nvmrc), whatever runs npm
console.log(`npm test on Node ${process.version}`)

mkdirSync('test-results', { recursive: true })
// a crashed run must not be counted from the last run's results
rmSync('test-results/tests.json', { force: true })
// The static checks, one after another, beside the test run, at the lowest CPU priority: the
// worker tests keep both cores busy, the browser tests leave a fifth of them idle (a page
// waiting on the server, a server starting), and the checks take only that (they took a third
// of a core from the worker tests before, a minute of the run).
const nice = (cmd, args) => ['nice', ['-n', '19', cmd, ...args]]
const checks = (async () => {
  if (testsOnly) return
  await run('format', ...nice('npx', ['oxfmt', '--check']))
  await run('lint', ...nice('npx', ['oxlint', '--deny-warnings']))
  await run('dead code', ...nice('npx', ['knip']))
  await run(
    'bindings types',
    ...nice('npx', [
      'wrangler',
      'types',
      '--strict-vars=false',
      '--include-runtime=false',
      'worker/worker-configuration.d.ts',
      '--check',
    ]),
  )
  await run('types', ...nice('npx', ['tsc', '-b']))
})()
const tests = run(
  'tests',
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    '--outputFile.json=test-results/tests.json',
    ...filters,
  ],
  { stream: true },
)
await Promise.all([checks, tests])

let passed = 0
let failed = 0
let skipped = 0
/** The failed tests by name, repeated at the very end: CI keeps only the last lines of a run. */
const failures = []
if (existsSync('test-results/tests.json')) {
  const r = JSON.parse(readFileSync('test-results/tests.json', 'utf8'))
  passed = r.numPassedTests
  failed = r.numFailedTests
  skipped = r.numPendingTests + r.numTodoTests
  for (const file of r.testResults) {
    const name = file.name.slice(file.name.indexOf('/test/') + 1)
    const tests = file.assertionResults.filter((t) => t.status === 'failed')
    for (const t of tests)
      failures.push(
        `${name} > ${t.fullName}: ${String(t.failureMessages?.[0] ?? '')
          .split('\n')[0]
          .slice(0, 300)}`,
      )
    // a file that failed outside its tests (a hook, an import)
    if (!tests.length && file.status === 'failed')
      failures.push(`${name}: ${String(file.message).slice(0, 300)}`)
  }
}
// A step that failed without failing a test (format, lint, types, a crashed runner) still
// fails the run.
failed += steps.filter((s) => !s.ok && s.name !== 'tests').length
if (steps.some((s) => !s.ok && s.name === 'tests') && failed === 0) failed += 1

console.log(
  '\n' + steps.map((s) => `${s.ok ? 'ok  ' : 'FAIL'} ${s.name} (${s.seconds}s)`).join('\n'),
)
// the whole run against its budget (docs/testing.md): ten minutes on the two-core machine
if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`)
console.log(`npm test took ${Math.round(process.uptime())} s (budget 600 s)`)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed || steps.some((s) => !s.ok) ? 1 : 0)
