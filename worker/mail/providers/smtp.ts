import { WorkerMailer } from 'worker-mailer'
import type { Bindings } from '../../bindings'
import { base64, domainOf, errorText, parseAddress, rateOf, type MailProvider } from './provider'

/**
 * SMTP over a TCP socket (worker-mailer): the local catcher `npm start` runs (maildev, port
 * 1025), or any relay on 465 (tls) or 587 (starttls). Cloudflare does not allow port 25.
 */
export function smtpProvider(env: Bindings): MailProvider {
  const security = env.SMTP_SECURITY || 'none'
  return {
    name: 'smtp',
    rate: rateOf(env.SMTP_RATE_PER_SECOND, 10),
    async send(m) {
      const messageId = `<outbox-${m.id}@${domainOf(m.from)}>`
      let mailer: WorkerMailer | undefined
      try {
        // one connection per message, closed whatever happens to it
        mailer = await WorkerMailer.connect({
          host: env.SMTP_HOST || '127.0.0.1',
          port: Number(env.SMTP_PORT || 1025),
          secure: security === 'tls',
          startTls: security === 'starttls',
          credentials:
            env.SMTP_USER && env.SMTP_PASS
              ? { username: env.SMTP_USER, password: env.SMTP_PASS }
              : undefined,
          socketTimeoutMs: 10_000,
          responseTimeoutMs: 10_000,
        })
        await mailer.send({
          from: parseAddress(m.from),
          to: m.to,
          reply: m.replyTo,
          subject: m.subject,
          text: m.text,
          html: m.html,
          headers: { ...m.headers, 'Message-ID': messageId },
          attachments: m.attachments.map((a) => ({
            filename: a.filename,
            mimeType: a.contentType,
            content: base64(a.content),
          })),
        })
        return { ok: true, messageId }
      } catch (err) {
        // a relay's 5xx refusal of the recipient will not pass; anything else may
        const error = errorText(err)
        return { ok: false, retry: !/\b55\d\b/.test(error), error }
      } finally {
        await mailer?.close().catch(() => undefined)
      }
    },
  }
}
