import type { Bindings } from '../../env'
import { base64, errorText, type MailProvider } from './provider'

export const RESEND_API = 'https://api.resend.com'

/**
 * Resend's HTTP API (resend.com/docs/api-reference/emails/send-email). The outbox id is the
 * Idempotency-Key, so a message redelivered by the queue is never sent twice.
 */
export function resendProvider(env: Bindings): MailProvider {
  return {
    name: 'resend',
    async send(m) {
      if (!env.RESEND_API_KEY)
        return { ok: false, retry: false, error: 'RESEND_API_KEY is not set' }
      let res: Response
      try {
        res = await fetch(`${RESEND_API}/emails`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${env.RESEND_API_KEY}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': `outbox-${m.id}`,
          },
          body: JSON.stringify({
            from: m.from,
            to: [m.to],
            reply_to: m.replyTo,
            subject: m.subject,
            text: m.text,
            html: m.html,
            headers: m.headers,
            attachments: m.attachments.map((a) => ({
              filename: a.filename,
              content: base64(a.content),
              content_type: a.contentType,
            })),
          }),
          signal: AbortSignal.timeout(15_000),
        })
      } catch (err) {
        return { ok: false, retry: true, error: `resend: ${errorText(err)}` }
      }
      const body = (await res.json().catch(() => ({}))) as { id?: string; message?: string }
      if (res.ok && body.id) return { ok: true, messageId: body.id }
      return {
        ok: false,
        // rate limited or the service in trouble: later; a refusal of the message: never
        retry: res.status === 429 || res.status >= 500,
        error: `resend ${res.status}: ${body.message ?? res.statusText}`,
      }
    },
  }
}
