// The local server runs the build through dev-entry.js: writes it beside the build, with a
// config that sends every request through it (assets.run_worker_first) and binds the static
// files as ASSETS. Returns the config's path, for `wrangler dev --config`.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BUILD = 'dist/growth_agency'

/** Writes `text` unless the file holds it already: a server already running reads these files. */
function writeChanged(path, text) {
  if (!existsSync(path) || readFileSync(path, 'utf8') !== text) writeFileSync(path, text)
}

export function devWorkerConfig() {
  const here = dirname(fileURLToPath(import.meta.url))
  writeChanged(join(BUILD, 'dev-entry.js'), readFileSync(join(here, 'dev-entry.js'), 'utf8'))
  const config = JSON.parse(readFileSync(join(BUILD, 'wrangler.json'), 'utf8'))
  config.main = 'dev-entry.js'
  // the local database is keyed by its binding, whatever id a deploy wrote into the build
  for (const db of config.d1_databases) delete db.database_id
  // crons run from crons.mjs through the dev entry; wrangler would only advise a URL that fails
  delete config.triggers
  config.assets = { ...config.assets, binding: 'ASSETS', run_worker_first: true }
  const path = join(BUILD, 'wrangler.dev.json')
  writeChanged(path, JSON.stringify(config))
  return path
}
