import type { Bindings } from '../../bindings'
import type { MailMessage } from '../letter'
import { retryAfterSeconds } from '../pace'
import { base64, errorText, rateOf, type MailProvider, type Refusal } from './provider'

export const RESEND_API = 'https://api.resend.com'
/** E-mails one call to /emails/batch may carry. */
const BATCH_SIZE = 100

/** One message as Resend's API takes it. */
const payloadOf = (m: MailMessage) => ({
  from: m.from,
  to: [m.to],
  reply_to: m.replyTo,
  subject: m.subject,
  text: m.text,
  html: m.html,
  headers: m.headers,
  attachments: m.attachments.length
    ? m.attachments.map((a) => ({
        filename: a.filename,
        content: base64(a.content),
        content_type: a.contentType,
      }))
    : undefined,
})

interface Answer {
  id?: string
  data?: { id?: string }[]
  name?: string
  message?: string
}
/** Resend's answer to a call: taken (or replayed: taken before), or refused. */
type Posted = { ok: true; answer: Answer; replayed: boolean } | Refusal

/**
 * Resend's HTTP API (resend.com/docs/api-reference): /emails for one message, /emails/batch for
 * up to 100. The Idempotency-Key (the outbox id, or the batch's fixed key) makes a repeated
 * call a replay, never a second send; Resend keeps keys for 24 hours.
 */
export function resendProvider(env: Bindings): MailProvider {
  const post = async (path: string, key: string, body: unknown): Promise<Posted> => {
    if (!env.RESEND_API_KEY) return { ok: false, retry: false, error: 'RESEND_API_KEY is not set' }
    let res: Response
    try {
      res = await fetch(`${RESEND_API}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${env.RESEND_API_KEY}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': key,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      })
    } catch (err) {
      return { ok: false, retry: true, error: `resend: ${errorText(err)}` }
    }
    const answer = (await res.json().catch(() => ({}))) as Answer
    if (res.ok) return { ok: true, answer, replayed: false }
    const error = `resend ${res.status}: ${answer.message ?? res.statusText}`
    if (res.status === 429) {
      const retryAfter = retryAfterSeconds(res.headers.get('Retry-After'), Date.now())
      return { ok: false, retry: true, error, retryAfter }
    }
    // the key was used before with another rendering of the same e-mails (a fresh unsubscribe
    // token): that call went through (Resend keeps a key only for a request it took)
    if (res.status === 409 && answer.name === 'invalid_idempotent_request')
      return { ok: true, answer, replayed: true }
    // the service in trouble: later; a refusal of the message: never
    return { ok: false, retry: res.status >= 500, error }
  }
  return {
    name: 'resend',
    rate: rateOf(env.RESEND_RATE_PER_SECOND, 2),
    async send(m) {
      const posted = await post('/emails', `outbox-${m.id}`, payloadOf(m))
      if (!posted.ok) return posted
      if (posted.answer.id || posted.replayed)
        return { ok: true, messageId: posted.answer.id ?? '' }
      return { ok: false, retry: true, error: 'resend: no message id in the answer' }
    },
    batch: {
      size: BATCH_SIZE,
      async send(messages, key) {
        const posted = await post('/emails/batch', key, messages.map(payloadOf))
        if (!posted.ok) return posted
        const ids = posted.answer.data ?? []
        return { ok: true, messageIds: messages.map((_, i) => ids[i]?.id ?? null) }
      },
    },
  }
}
