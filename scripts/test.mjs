// `npm test`: formatting, types, locale completeness, worker tests in workerd, browser tests
// in Chromium. Ends with one line "N passed, N failed" for CI, counted over both test runs.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'

const steps = []
const run = (name, cmd, args) => {
  const started = Date.now()
  const { status } = spawnSync(cmd, args, { stdio: 'inherit' })
  steps.push({ name, ok: status === 0, seconds: Math.round((Date.now() - started) / 1000) })
  return status === 0
}

mkdirSync('test-results', { recursive: true })
run('format', 'npx', ['prettier', '--check', '--log-level', 'warn', '.'])
run('types', 'npx', ['tsc', '--noEmit'])
run('worker', 'npx', [
  'vitest',
  'run',
  '--config',
  'vitest.worker.config.ts',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/worker.json',
])
run('e2e', 'npx', [
  'vitest',
  'run',
  '--config',
  'vitest.e2e.config.ts',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=test-results/e2e.json',
])

let passed = 0
let failed = 0
let skipped = 0
for (const file of ['test-results/worker.json', 'test-results/e2e.json']) {
  if (!existsSync(file)) continue
  const r = JSON.parse(readFileSync(file, 'utf8'))
  passed += r.numPassedTests
  failed += r.numFailedTests
  skipped += r.numPendingTests + r.numTodoTests
}
// A step that failed without failing a test (format, types, a crashed runner) still fails the run.
failed += steps.filter((s) => !s.ok && !['worker', 'e2e'].includes(s.name)).length
const crashed = steps.some((s) => !s.ok && ['worker', 'e2e'].includes(s.name)) && failed === 0
if (crashed) failed += 1

console.log(
  '\n' + steps.map((s) => `${s.ok ? 'ok  ' : 'FAIL'} ${s.name} (${s.seconds}s)`).join('\n'),
)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed || steps.some((s) => !s.ok) ? 1 : 0)
