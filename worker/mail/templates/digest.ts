import type { MailTemplate } from './context'

/** The day's new subscribers and guide downloads, for the agency (the daily cron). */
export const agencyDigest: MailTemplate<{ since: string; until: string }> = {
  category: 'agency',
  letter: async ({ t, lang, db }, { since, until }) => {
    const [subscribers, guides] = await db.batch<{
      email: string
      detail: string
      language: string
    }>([
      db
        .prepare(
          `SELECT email, signup_form AS detail, language FROM subscribers
           WHERE created_at >= ? AND created_at < ? ORDER BY id`,
        )
        .bind(since, until),
      db
        .prepare(
          `SELECT email, guide AS detail, language FROM guide_requests
           WHERE created_at >= ? AND created_at < ? ORDER BY id`,
        )
        .bind(since, until),
    ])
    const lines = (rows: D1Result<{ email: string; detail: string; language: string }>) =>
      rows.results.length
        ? rows.results.map((r) => `${r.email} · ${r.detail} · ${r.language}`).join('\n')
        : t('mail.digest_none')
    const when = new Intl.DateTimeFormat(lang, {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: 'UTC',
    }).format(new Date(since))
    const intro = t('mail.digest_intro', { since: `${when} UTC` })
    return {
      subject: t('mail.digest_subject', {
        subscribers: t.plural('mail.digest_subscribers_count', subscribers.results.length),
        guides: t.plural('mail.digest_guides_count', guides.results.length),
      }),
      preview: intro,
      paragraphs: [
        intro,
        `${t('mail.digest_subscribers')} (${subscribers.results.length}):\n${lines(subscribers)}`,
        `${t('mail.digest_guides')} (${guides.results.length}):\n${lines(guides)}`,
      ],
    }
  },
}
