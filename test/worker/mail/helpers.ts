import { env } from 'cloudflare:test'
import { MAIL_WAIT_MS, outboxRows, parsedMailsTo } from '../inbox'
import type { OutboxRow } from '../../../worker/db/outbox'

/** The newest message to `to` (its subject matching), once it has arrived. */
export async function delivered(to: string, subject?: RegExp, timeoutMs = MAIL_WAIT_MS) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const found = (await parsedMailsTo(to, subject)).at(-1)
    if (found) return found
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no e-mail to ${to} ${subject ?? ''}`)
}

/** Waits until every e-mail to `to` has left `queued`/`sending`. */
export async function settled(to: string, timeoutMs = MAIL_WAIT_MS) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const rows = await outboxRows(to)
    if (rows.length && rows.every((r) => r.status !== 'queued' && r.status !== 'sending'))
      return rows
    await new Promise((r) => setTimeout(r, 100))
  }
  return outboxRows(to)
}

/** An outbox row written as the site writes them, not on the queue: for delivery tests. */
export async function queuedRow(
  fields: Partial<Omit<OutboxRow, 'data'>> & { kind: string; data: unknown },
) {
  const row = await env.DB.prepare(
    `INSERT INTO mail_outbox (kind, data, category, language, to_address, site_url, subject)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(
      fields.kind,
      JSON.stringify(fields.data),
      fields.category ?? 'transactional',
      fields.language ?? 'en',
      fields.to_address ?? `deliver-${crypto.randomUUID().slice(0, 8)}@example.org`,
      fields.site_url ?? 'https://example.com',
      fields.subject ?? 'subject',
    )
    .first<{ id: number }>()
  return row!.id
}

export const rowById = (id: number) =>
  env.DB.prepare('SELECT * FROM mail_outbox WHERE id = ?').bind(id).first<OutboxRow>()

export const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.org`
