// `npm run test:clock -- "2027-03-28 00:30" [vitest filters…]`: the test suite (or the files
// named) with every process's wall clock at that instant and running on from it: node, workerd
// (the Worker's Date and D1's 'now'), Chromium and Radicale. A time without a zone is the
// agency's (BOOKING_TIMEZONE in wrangler.toml, Europe/London). Ends with "N passed, N failed".
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs'
import { fromZonedTime } from 'date-fns-tz'
import { parse } from 'smol-toml'

const [when, ...filters] = process.argv.slice(2)
if (!when) {
  console.error('Usage: npm run test:clock -- "YYYY-MM-DD HH:MM" [test files…]')
  process.exit(2)
}
const zone = parse(readFileSync('wrangler.toml', 'utf8')).vars?.BOOKING_TIMEZONE || 'Europe/London'
const hasZone = /(Z|[+-]\d\d:?\d\d)$/i.test(when.trim())
const at = hasZone ? new Date(when) : fromZonedTime(when.trim().replace(' ', 'T'), zone)
if (Number.isNaN(at.getTime())) {
  console.error(`Not a date and time: ${when}`)
  process.exit(2)
}

// The shim (scripts/clock/offset-clock.c says why not libfaketime), built once with the
// machine's C compiler.
const source = 'scripts/clock/offset-clock.c'
const library = 'node_modules/.cache/offset-clock/offset-clock.so'
if (!existsSync(library) || statSync(library).mtimeMs < statSync(source).mtimeMs) {
  mkdirSync('node_modules/.cache/offset-clock', { recursive: true })
  const cc = spawnSync('cc', ['-O2', '-shared', '-fPIC', '-o', library, source, '-ldl'], {
    stdio: 'inherit',
  })
  if (cc.status !== 0) {
    console.error('Could not build the clock shim: a C compiler (cc) is needed.')
    process.exit(2)
  }
}

const offset = Math.round((at.getTime() - Date.now()) / 1000)
console.log(
  `Clock: ${at.toISOString()} (${zone}: ${at.toLocaleString('en-GB', { timeZone: zone })})`,
)
const env = {
  ...process.env,
  LD_PRELOAD: [`${process.cwd()}/${library}`, process.env.LD_PRELOAD].filter(Boolean).join(' '),
  TEST_CLOCK_OFFSET_SECONDS: String(offset),
}
// the tests only: formatting, lint and types do not depend on the hour
const args = ['scripts/test.mjs', '--tests-only', ...filters]
process.exit(spawnSync('node', args, { stdio: 'inherit', env }).status ?? 1)
