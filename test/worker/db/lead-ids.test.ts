import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

// Migration 0032 on a database that has leads (each file sent whole, as `wrangler d1 migrations
// apply --remote` sends it): the lead tables made again with AUTOINCREMENT keep every row, id
// and search entry, and no id that a mark or the desk's log names is given again.

const db = env.MIGRATION_FILES_DB
const MIGRATION = '0032_never_reuse_lead_ids.sql'
const LEAD_TABLES = ['subscribers', 'guide_requests', 'contact_messages', 'bookings']

const apply = async (which: (name: string) => boolean) => {
  for (const { name, sql } of env.TEST_MIGRATION_FILES.filter((f) => which(f.name)))
    await expect(db.prepare(sql).run(), name).resolves.toMatchObject({ success: true })
}
const rows = async (table: string) =>
  (await db.prepare(`SELECT * FROM ${table} ORDER BY id`).all()).results
const newId = async (sql: string) =>
  (await db.prepare(`${sql} RETURNING id`).first<{ id: number }>())!.id

describe(MIGRATION, () => {
  it('keeps every lead, id and search entry; erased leads’ ids and marks are never inherited', async () => {
    await apply((name) => name < MIGRATION)
    // three sign-ups, the newest erased with its mark left behind; a guide and a message; a
    // booking, and a newer one a visitor cancelled (its id in the log)
    await db.batch(
      [
        `INSERT INTO subscribers (email, name, signup_form, language, consent_version, status,
           confirm_nonce) VALUES
           ('ada@example.org', 'Ada Lovelace', 'newsletter', 'en', 'v1', 'confirmed', 'n1'),
           ('bob@example.org', 'Bob', 'guide', 'de', 'v1', 'pending', 'n2'),
           ('cy@example.org', 'Cy', 'guide', 'fr', 'v1', 'pending', 'n3')`,
        `INSERT INTO guide_requests (email, name, guide, language) VALUES
           ('bob@example.org', 'Bob', 'seo', 'de')`,
        `INSERT INTO contact_messages (name, email, service, message, language) VALUES
           ('Dee', 'dee@example.org', 'shopify', 'Hello', 'en')`,
        `INSERT INTO bookings (slot_start, name, email, time_zone, language, token, slot_end) VALUES
           ('2030-01-07T09:00:00.000Z', 'Eve', 'eve@example.org', 'UTC', 'en', 't1',
            '2030-01-07T09:30:00.000Z'),
           ('2030-01-07T10:00:00.000Z', 'Fay', 'fay@example.org', 'UTC', 'en', 't2',
            '2030-01-07T10:30:00.000Z')`,
        `INSERT INTO lead_marks (kind, lead_id, handled_at, note) VALUES
           ('subscriber', 2, '2030-01-01', 'Bob: call back'), ('subscriber', 3, '2030-01-01', 'Cy'),
           ('contact', 1, NULL, 'Dee: quote sent')`,
        `DELETE FROM subscribers WHERE id = 3`,
        `INSERT INTO desk_audit (actor_id, actor_email, action, target, detail) VALUES
           ('visitor', 'fay@example.org', 'booking.cancel', 'booking/2', '{"slot":"x"}'),
           ('staff', 'staff@example.org', 'booking.cancel', 'booking/999999',
            '{"outcome":"gone"}')`,
        `DELETE FROM bookings WHERE id = 2`,
      ].map((sql) => db.prepare(sql)),
    )
    const before = await Promise.all(LEAD_TABLES.map(rows))

    await apply((name) => name >= MIGRATION)

    expect(await Promise.all(LEAD_TABLES.map(rows))).toEqual(before)
    for (const table of LEAD_TABLES)
      expect(
        (await db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').bind(table).first<{
          sql: string
        }>())!.sql,
        table,
      ).toContain('AUTOINCREMENT')
    // the desk's search finds the rows as before, and its index is whole
    const found = (table: string, text: string) =>
      db
        .prepare(`SELECT rowid AS id FROM ${table}_search WHERE ${table}_search MATCH ?`)
        .bind(`"${text}"`)
        .all()
        .then((r) => r.results)
    expect(await found('subscribers', 'lovelace')).toEqual([{ id: 1 }])
    expect(await found('guide_requests', 'bob@')).toEqual([{ id: 1 }])
    for (const table of ['subscribers', 'guide_requests', 'contact_messages'])
      await db
        .prepare(`INSERT INTO ${table}_search (${table}_search) VALUES ('integrity-check')`)
        .run()
    // the erased sign-up's mark is gone; the others stay
    expect(
      (await db.prepare('SELECT kind, lead_id FROM lead_marks ORDER BY kind').all()).results,
    ).toEqual([
      { kind: 'contact', lead_id: 1 },
      { kind: 'subscriber', lead_id: 2 },
    ])
    // new rows get ids never seen: not the erased sign-up's, not the cancelled booking's (a
    // cancel that found nothing names no booking)
    expect(
      await newId(
        "INSERT INTO subscribers (email, signup_form, language, consent_version) VALUES ('gus@example.org', 'guide', 'en', 'v1')",
      ),
    ).toBe(4)
    expect(
      await newId(
        "INSERT INTO bookings (slot_start, name, email, time_zone, language, token) VALUES ('2030-01-08T09:00:00.000Z', 'Hal', 'hal@example.org', 'UTC', 'en', 't3')",
      ),
    ).toBe(3)
    expect(await found('subscribers', 'gus@')).toEqual([{ id: 4 }])
    // a lead deleted takes its mark with it, and its id is not given again
    await db.prepare('DELETE FROM contact_messages WHERE id = 1').run()
    expect(
      (await db.prepare("SELECT count(*) AS n FROM lead_marks WHERE kind = 'contact'").first())!,
    ).toEqual({ n: 0 })
    expect(
      await newId(
        "INSERT INTO contact_messages (name, email, service, message, language) VALUES ('Ivy', 'ivy@example.org', 'seo', 'Hi', 'en')",
      ),
    ).toBe(2)
  })
})
