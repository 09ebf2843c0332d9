import { queryD1Async } from '../../scripts/lib/d1.mjs'
import { E2E_STATE } from '../setup/server'

/** Reads the browser tests' local D1, as the agency reads its leads. */
export function query<T = Record<string, unknown>>(sql: string): Promise<T[]> {
  return queryD1Async<T>(sql, { persistTo: E2E_STATE })
}
