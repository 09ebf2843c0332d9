import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { E2E_STATE } from '../setup/server'

/** Reads the browser tests' local D1, as the agency reads its leads. */
export async function query<T = Record<string, unknown>>(sql: string): Promise<T[]> {
  const { stdout } = await promisify(execFile)('npx', [
    'wrangler',
    'd1',
    'execute',
    'DB',
    '--local',
    '--config',
    'wrangler.toml',
    '--persist-to',
    E2E_STATE,
    '--json',
    '--command',
    sql,
  ])
  return JSON.parse(stdout)[0].results
}
