import type { MessageKey } from '../../i18n/translator'
import { spokenBy, type MailTemplate } from './context'

type Row = { email: string; detail: string; language: string }

/** The day's new subscribers and guide downloads, for the agency (the daily cron). */
export const agencyDigest: MailTemplate<{ since: string; until: string }> = {
  category: 'agency',
  letter: async ({ t, lang, db }, { since, until }) => {
    const [subscribers, guides] = await db.batch<Row>([
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
    // the form, the guide and the language in the agency's words, not their codes
    const lines = (rows: D1Result<Row>, detail: (code: string) => string) =>
      rows.results.length
        ? rows.results
            .map((r) => `${r.email} · ${detail(r.detail)} · ${spokenBy(lang, r.language)}`)
            .join('\n')
        : t('mail.digest_none')
    const named = (key: string, code: string) => t(key as MessageKey, undefined, code)
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
        `${t('mail.digest_subscribers')} (${subscribers.results.length}):\n${lines(subscribers, (form) => named(`mail.digest_form_${form}`, form))}`,
        `${t('mail.digest_guides')} (${guides.results.length}):\n${lines(guides, (slug) => named(`guides.${slug}.title`, slug))}`,
      ],
    }
  },
}
