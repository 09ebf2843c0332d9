// Runs one SQL statement against the project's D1 with wrangler, as the D1 console would:
// the local database of `npm start` by default, or the production one with { remote: true }.
import { execFile, execFileSync } from 'node:child_process'
import { promisify } from 'node:util'

const argsFor = (sql, { remote = false, persistTo = '.wrangler/state' } = {}) => [
  'wrangler',
  'd1',
  'execute',
  'DB',
  '--config',
  'wrangler.toml',
  ...(remote ? ['--remote'] : ['--local', '--persist-to', persistTo]),
  '--json',
  '--command',
  sql,
]

export function queryD1(sql, options) {
  const out = execFileSync('npx', argsFor(sql, options), {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return JSON.parse(out)[0].results
}

export async function queryD1Async(sql, options) {
  const { stdout } = await promisify(execFile)('npx', argsFor(sql, options))
  return JSON.parse(stdout)[0].results
}
