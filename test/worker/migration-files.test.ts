import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

// `wrangler d1 migrations apply --remote` sends each migration file to the D1 API as one query,
// and D1 takes at most 100 KB of SQL in one (a local workerd refuses more with SQLITE_TOOBIG).
// Each file here goes to an empty database the same way: whole, as one query (D1's `exec`
// would split it into lines, so a prepared statement of the whole text, as the API receives it).

declare global {
  namespace Cloudflare {
    interface Env {
      MIGRATION_FILES_DB: D1Database
      TEST_MIGRATION_FILES: { name: string; sql: string }[]
    }
  }
}

const files = env.TEST_MIGRATION_FILES
const db = env.MIGRATION_FILES_DB
const LIMIT = 100_000

const count = async (sql: string) => (await db.prepare(sql).first<{ n: number }>())!.n

describe('migration files, each as one query', () => {
  it('every file is under 100 KB and applies whole, in order, to an empty database', async () => {
    // as wrangler sends each (cli.js 185955ff.): the file, then its row in the migrations table
    await db
      .prepare(
        'CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)',
      )
      .run()
    for (const { name, sql } of files) {
      const query = `${sql}\nINSERT INTO d1_migrations (name) values ('${name}');`
      expect(new TextEncoder().encode(query).length, name).toBeLessThanOrEqual(LIMIT)
      await expect(db.prepare(query).run(), name).resolves.toMatchObject({ success: true })
    }
    expect(await count('SELECT count(*) AS n FROM d1_migrations')).toBe(files.length)
    // the seed, whole: 47 items in six languages, the bodies in their columns (0015)
    expect(await count('SELECT count(*) AS n FROM content_items')).toBe(47)
    expect(await count('SELECT count(*) AS n FROM content_texts')).toBe(282)
    expect(
      await count(
        "SELECT count(*) AS n FROM content_texts WHERE json_type(fields, '$.body') IS NOT NULL",
      ),
    ).toBe(0)
    expect(await count('SELECT count(*) AS n FROM content_texts WHERE body IS NOT NULL')).toBe(54)
  })

  it('the seed parts after 0014 change nothing on a database that took 0014 whole before the split', async () => {
    // such a database has every row already, and 0015–0017 applied: its migrations table lists
    // only 0014_seed_content.sql, so wrangler applies the parts now, after the later files
    const edited =
      "UPDATE content_texts SET body = 'edited in the desk' WHERE item_id = 1 AND lang = 'en'"
    await db.prepare(edited).run()
    const before = await db.prepare('SELECT * FROM content_texts ORDER BY item_id, lang').all()
    for (const { name, sql } of files.filter((f) => /^0014_seed_content_\d+\.sql$/.test(f.name)))
      await expect(db.prepare(sql).run(), name).resolves.toMatchObject({ success: true })
    const after = await db.prepare('SELECT * FROM content_texts ORDER BY item_id, lang').all()
    expect(after.results).toEqual(before.results)
  })
})
