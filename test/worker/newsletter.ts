import { env } from 'cloudflare:test'
import type { Lang } from '../../client/lib/languages'
import { SITE } from './auth/helpers'

/** A draft newsletter issue with these texts, as the desk saves one; its id. */
export async function issueWith(texts: Partial<Record<Lang, { subject: string; body: string }>>) {
  const row = await env.DB.prepare(
    `INSERT INTO newsletter_issues (site_url, created_by, updated_by)
     VALUES (?, 'test', 'test') RETURNING id`,
  )
    .bind(SITE)
    .first<{ id: number }>()
  await env.DB.batch(
    Object.entries(texts).map(([lang, t]) =>
      env.DB.prepare(
        'INSERT INTO newsletter_texts (issue_id, lang, subject, body) VALUES (?, ?, ?, ?)',
      ).bind(row!.id, lang, t.subject, t.body),
    ),
  )
  return row!.id
}

/** Waits until the issue's send is over (the newsletter queue's consumer runs it); its row. */
export async function sentIssue(id: number, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const row = await env.DB.prepare('SELECT * FROM newsletter_issues WHERE id = ?')
      .bind(id)
      .first<{ status: string }>()
    if (row?.status === 'sent' || Date.now() > deadline) return row
    await new Promise((r) => setTimeout(r, 100))
  }
}
