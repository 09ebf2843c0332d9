// Wrangler as the operator's scripts call it (deploy, and the --remote modes of leads, staff,
// outbox, newsletter): one runner, and the production database's config. WRANGLER names another
// executable (the deploy test's stand-in, which records its calls).
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parse } from 'smol-toml'

/** wrangler.toml, as the deploy reads its name, database, queues and vars. */
export const wranglerConfig = parse(readFileSync('wrangler.toml', 'utf8'))

/** Runs wrangler; its stdout. `input` goes to its stdin (secrets never go on a command line). */
export function wrangler(args, { input, quiet = false } = {}) {
  const [cmd, ...pre] = process.env.WRANGLER ? [process.env.WRANGLER] : ['npx', 'wrangler']
  return execFileSync(cmd, [...pre, ...args], {
    encoding: 'utf8',
    input,
    stdio: ['pipe', 'pipe', quiet ? 'pipe' : 'inherit'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    maxBuffer: 64 * 1024 * 1024,
  })
}

/** The D1 binding of wrangler.toml: its binding, its name on the account, its migrations. */
export const DATABASE = wranglerConfig.d1_databases[0]

/** The production database's id, looked up by name on the account; undefined when absent. */
export function remoteDatabaseId() {
  const list = JSON.parse(wrangler(['d1', 'list', '--json'], { quiet: true }))
  return list.find((db) => db.name === DATABASE.database_name)?.uuid
}

/**
 * A config for wrangler's D1 commands on the production database: wrangler.toml has no
 * database_id (the binding name keys the local one), and `--remote` needs it.
 */
export function remoteD1Config(id = remoteDatabaseId()) {
  if (!id)
    throw new Error(
      `no D1 database "${DATABASE.database_name}" on this account yet: run npm run deploy`,
    )
  const path = resolve('.wrangler/deploy/d1-remote.json')
  mkdirSync(resolve('.wrangler/deploy'), { recursive: true })
  writeFileSync(
    path,
    JSON.stringify({
      name: wranglerConfig.name,
      d1_databases: [
        { ...DATABASE, database_id: id, migrations_dir: resolve(DATABASE.migrations_dir) },
      ],
    }),
  )
  return path
}
