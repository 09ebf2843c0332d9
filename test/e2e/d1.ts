import { inject } from 'vitest'

/**
 * Reads the browser tests' local D1, as the agency reads its leads, through the test server's
 * own workerd (wrangler dev's local explorer API). A second process on the same SQLite file
 * (`wrangler d1 execute --local`) could hold its lock while the server wrote: the server's
 * write then failed with SQLITE_BUSY, and a sign-up with it.
 */
const databaseIds = new Map<string, Promise<string>>()

/** `site`: another test server's D1 (default: the main one's). */
export async function query<T = Record<string, unknown>>(
  sql: string,
  site = inject('baseURL'),
): Promise<T[]> {
  const api = `${site}/cdn-cgi/explorer/api/d1/database`
  if (!databaseIds.has(api))
    databaseIds.set(
      api,
      fetch(api)
        .then((r) => r.json() as Promise<{ result: { name: string; uuid: string }[] }>)
        .then(({ result }) => result.find((db) => db.name === 'DB')!.uuid),
    )
  const response = await fetch(`${api}/${await databaseIds.get(api)}/raw`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sql }),
  })
  const body = (await response.json()) as {
    success: boolean
    errors: unknown[]
    result: { results: { columns: string[]; rows: unknown[][] } }[]
  }
  if (!body.success) throw new Error(`D1 query failed: ${JSON.stringify(body.errors)}`)
  const { columns, rows } = body.result[0].results
  return rows.map((row) => Object.fromEntries(columns.map((col, i) => [col, row[i]])) as T)
}
