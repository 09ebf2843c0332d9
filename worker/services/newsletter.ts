import * as v from 'valibot'
import { LANGS } from '../../client/lib/languages'
import { readConfig } from '../config'
import type { Bindings } from '../env'
import { sendJobs } from '../mail/enqueue'
import { TEMPLATES } from '../mail/templates'

/**
 * Newsletter issues: `npm run newsletter` stores one (`newsletters`, status ready); the cron
 * writes its e-mails, one per confirmed subscriber in their language, and queues them. Pending
 * and unsubscribed addresses get none; delivery checks the suppression list once more, so a
 * bounce or an unsubscribe between now and the send still stops it.
 */

const Issue = v.pipe(
  v.object({
    subject: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(200)),
    paragraphs: v.pipe(v.array(v.pipe(v.string(), v.nonEmpty())), v.minLength(1), v.maxLength(50)),
  }),
)

export const NewsletterContent = v.object({
  en: Issue,
  ...Object.fromEntries(LANGS.filter((l) => l !== 'en').map((l) => [l, v.optional(Issue)])),
})

export type NewsletterIssue = v.InferOutput<typeof Issue>

/** Writes and queues one issue's e-mails; the outbox ids. */
export async function sendNewsletter(
  env: Bindings,
  { id, content, siteUrl: origin }: { id: number; content: unknown; siteUrl: string },
) {
  const db = env.DB
  const parsed = v.safeParse(NewsletterContent, content)
  // a ready issue is claimed once: a second cron run finds it sent
  const key = crypto.randomUUID()
  const claim = db
    .prepare(
      `UPDATE newsletters
       SET status = 'sent', claim = ?, sent_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       WHERE id = ? AND status = 'ready'`,
    )
    .bind(key, id)
  if (!parsed.success) {
    await claim.run()
    console.error('newsletter', id, 'not sent: its content is not valid', parsed.issues[0].message)
    return []
  }
  const issues = parsed.output as Record<string, NewsletterIssue | undefined>
  const siteUrl = readConfig(env, origin || env.SITE_URL || 'http://localhost').siteUrl
  const { category } = TEMPLATES.newsletter
  const writes = LANGS.map((lang) => {
    const issue = issues[lang] ?? issues.en!
    return db
      .prepare(
        `INSERT INTO mail_outbox (kind, data, category, language, to_address, site_url, subject)
         SELECT 'newsletter', ?1, ?2, ?3, email, ?4, ?5 FROM subscribers
         WHERE status = 'confirmed' AND language = ?3
           AND (SELECT claim FROM newsletters WHERE id = ?6) = ?7
         RETURNING id`,
      )
      .bind(JSON.stringify(issue), category, lang, siteUrl, issue.subject, id, key)
  })
  const [claimed, ...results] = await db.batch([claim, ...writes])
  if (!claimed.meta.changes) return []
  const ids = results.flatMap((r) => (r.results as { id: number }[]).map((row) => row.id))
  await db.prepare('UPDATE newsletters SET recipients = ? WHERE id = ?').bind(ids.length, id).run()
  await sendJobs(env, ids)
  return ids
}

/** The cron's part: every ready issue, oldest first. */
export async function sendReadyNewsletters(env: Bindings) {
  const { results } = await env.DB.prepare(
    "SELECT id, content, site_url FROM newsletters WHERE status = 'ready' ORDER BY id",
  ).all<{ id: number; content: string; site_url: string }>()
  const sent: number[] = []
  for (const issue of results) {
    let content: unknown = null
    try {
      content = JSON.parse(issue.content)
    } catch {
      // reported by sendNewsletter as invalid content
    }
    sent.push(...(await sendNewsletter(env, { id: issue.id, content, siteUrl: issue.site_url })))
  }
  return sent
}
