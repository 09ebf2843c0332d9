// Wrangler as the operator's scripts call it (deploy, and the --remote modes of leads, staff,
// outbox, newsletter): one runner, and the production database's config. WRANGLER names another
// executable (the deploy test's stand-in, which records its calls).
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { parse } from 'smol-toml'

/** wrangler.toml, as the deploy reads its name, database, queues and vars. */
export const wranglerConfig = parse(readFileSync('wrangler.toml', 'utf8'))

const command = () => (process.env.WRANGLER ? [process.env.WRANGLER] : ['npx', 'wrangler'])
// no colours in what is parsed; stdin is never a terminal, so no prompt waits (wrangler takes
// each one's default, or stops)
const environment = (extra) => ({
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  FORCE_COLOR: '0',
  ...extra,
})

/** Runs wrangler; its stdout. `input` goes to its stdin (secrets never go on a command line). */
export function wrangler(args, { input, quiet = false } = {}) {
  const [cmd, ...pre] = command()
  return execFileSync(cmd, [...pre, ...args], {
    encoding: 'utf8',
    input,
    stdio: ['pipe', 'pipe', quiet ? 'pipe' : 'inherit'],
    env: environment(),
    maxBuffer: 64 * 1024 * 1024,
  })
}

/**
 * Runs wrangler and never throws: its exit status, stdout, stderr, and the records it wrote to
 * its output file (WRANGLER_OUTPUT_FILE_PATH: one JSON object a line, e.g. a version's id and
 * preview URL). `echo` copies its output to the terminal as well.
 */
export function wranglerRun(args, { echo = false } = {}) {
  const [cmd, ...pre] = command()
  const dir = mkdtempSync(join(tmpdir(), 'wrangler-output-'))
  const outputFile = join(dir, 'output.json')
  try {
    const run = spawnSync(cmd, [...pre, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: environment({ WRANGLER_OUTPUT_FILE_PATH: outputFile }),
      maxBuffer: 64 * 1024 * 1024,
      timeout: 10 * 60_000,
    })
    if (echo) {
      process.stdout.write(run.stdout ?? '')
      process.stderr.write(run.stderr ?? '')
    }
    let records = []
    try {
      records = readFileSync(outputFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    } catch {
      // no output file: the command wrote none
    }
    // wrangler colours its errors whatever FORCE_COLOR says
    return {
      ok: run.status === 0,
      stdout: stripVTControlCharacters(run.stdout ?? ''),
      stderr: stripVTControlCharacters(run.stderr ?? ''),
      error: run.error,
      records,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The API error codes in wrangler's message ("… [code: 10042]"). */
export const errorCodes = (text) => [...text.matchAll(/\[code: (\d+)\]/g)].map((m) => Number(m[1]))

/** Wrangler's own error line(s), without its banner, for a message of ours. */
export const wranglerError = ({ stderr, stdout, error }) =>
  (error?.message ??
    (stderr.trim() || stdout.trim())
      .split('\n')
      .filter(
        (l) =>
          l.trim() && !/If you think this is a bug|workers-sdk\/issues|Logs were written/.test(l),
      )
      .join('\n')
      .trim()) ||
  'no message'

/** The D1 binding of wrangler.toml: its binding, its name on the account, its migrations. */
export const DATABASE = wranglerConfig.d1_databases[0]

/** The production database's id, looked up by name on the account; undefined when absent. */
export function remoteDatabaseId() {
  // `d1 list` reads every page of the account's databases
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

/**
 * A GET or POST to the Cloudflare API with wrangler's own credentials (`wrangler auth token`),
 * for what wrangler has no command for (the workers.dev subdomain, Analytics Engine, the plan).
 * CLOUDFLARE_API_BASE_URL is wrangler's own setting for another API address.
 */
export async function cloudflareApi(token, path, init = {}) {
  const base = process.env.CLOUDFLARE_API_BASE_URL ?? 'https://api.cloudflare.com/client/v4'
  const res = await fetch(base + path, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, ...init.headers },
    signal: AbortSignal.timeout(15_000),
  })
  const text = await res.text()
  let body = null
  try {
    body = JSON.parse(text)
  } catch {
    // the Analytics Engine SQL API answers in text
  }
  return { status: res.status, ok: res.ok, body, text }
}
