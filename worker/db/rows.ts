/**
 * An INSERT whose column list is the row's own keys, so every field a schema validated reaches
 * its column: none can be left out of a hand-written list. The schema test
 * (test/worker/db/schema.test.ts) checks each row type's fields against the migrations.
 */
export function insertRow(
  db: D1Database,
  table: string,
  row: Record<string, string | number | null | undefined>,
  tail = '',
) {
  const columns = Object.keys(row).filter((k) => row[k] !== undefined)
  const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ${tail}`
  return db.prepare(sql.trim()).bind(...columns.map((k) => row[k] ?? null))
}
