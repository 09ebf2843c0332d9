// Runs one SQL statement against the project's D1 with wrangler, as the D1 console would:
// the local database of `npm start` by default, or the production one with { remote: true }.
import { remoteD1Config, wrangler } from './cloudflare.mjs'

let remoteConfig
const argsFor = (sql, { remote = false, persistTo = '.wrangler/state' } = {}) => [
  'd1',
  'execute',
  'DB',
  '--config',
  remote ? (remoteConfig ??= remoteD1Config()) : 'wrangler.toml',
  ...(remote ? ['--remote'] : ['--local', '--persist-to', persistTo]),
  '--json',
  '--command',
  sql,
]

// A running `npm start` (or test server) holds the local SQLite file; a read that meets its
// write is told SQLITE_BUSY, which passes in a moment.
const busy = (err) => /SQLITE_BUSY|database is locked/.test(`${err?.message}${err?.stderr}`)
const ATTEMPTS = 8

export function queryD1(sql, options) {
  for (let attempt = 1; ; attempt++) {
    try {
      return JSON.parse(wrangler(argsFor(sql, options), { quiet: true }))[0].results
    } catch (err) {
      if (!busy(err) || attempt === ATTEMPTS) {
        if (err?.stderr) process.stderr.write(err.stderr)
        throw err
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250 * attempt)
    }
  }
}
