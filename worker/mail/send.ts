import type { Context } from 'hono'
import type { AppEnv, Bindings } from '../env'

export interface Mail {
  to: string
  subject: string
  text: string
}

/** Where the site's e-mails go. The one sender today is the D1 outbox; a provider plugs in here. */
export interface MailSender {
  send(mail: Mail): Promise<void>
}

/** Keeps e-mails in the `outbox` table; `npm run outbox` prints them for a developer. */
export function outboxSender(db: D1Database): MailSender {
  return {
    async send(mail) {
      await db
        .prepare('INSERT INTO outbox (to_address, subject, body_text) VALUES (?, ?, ?)')
        .bind(mail.to, mail.subject, mail.text)
        .run()
    },
  }
}

export function mailSender(env: Bindings): MailSender {
  return outboxSender(env.DB)
}

/** Sends after the answer: what the e-mail confirms stays stored even if it cannot be queued. */
export function queueMail(c: Context<AppEnv>, mail: Mail) {
  c.executionCtx.waitUntil(
    mailSender(c.env)
      .send(mail)
      .catch((err) => console.error('mail not queued', mail.subject, err)),
  )
}
