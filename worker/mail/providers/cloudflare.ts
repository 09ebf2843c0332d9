import { EmailMessage } from 'cloudflare:email'
import { createMimeMessage, Mailbox } from 'mimetext'
import type { Bindings } from '../../bindings'
import type { MailMessage } from '../letter'
import { base64, domainOf, errorText, parseAddress, rateOf, type MailProvider } from './provider'

/** The message as MIME (mimetext), and its Message-ID: what the binding is handed. */
export function mimeOf(m: MailMessage) {
  const messageId = `<outbox-${m.id}@${domainOf(m.from)}>`
  const from = parseAddress(m.from)
  const mime = createMimeMessage()
  mime.setSender({ name: from.name, addr: from.email })
  mime.setRecipient(m.to)
  mime.setSubject(m.subject)
  mime.setHeader('Message-ID', messageId)
  if (m.replyTo) mime.setHeader('Reply-To', new Mailbox(m.replyTo))
  for (const [k, v] of Object.entries(m.headers)) mime.setHeader(k, v)
  mime.addMessage({ contentType: 'text/plain', data: m.text })
  mime.addMessage({ contentType: 'text/html', data: m.html })
  for (const a of m.attachments)
    mime.addAttachment({
      filename: a.filename,
      contentType: a.contentType,
      data: base64(a.content),
    })
  return { raw: mime.asRaw(), messageId, from: from.email }
}

/** Cloudflare Email Service: the `send_email` binding. */
export function cloudflareProvider(env: Bindings): MailProvider {
  return {
    name: 'cloudflare',
    rate: rateOf(env.CLOUDFLARE_MAIL_RATE_PER_SECOND, 10),
    async send(m) {
      try {
        const { raw, messageId, from } = mimeOf(m)
        await env.SEND_EMAIL.send(new EmailMessage(from, m.to, raw))
        return { ok: true, messageId }
      } catch (err) {
        return { ok: false, retry: true, error: `cloudflare: ${errorText(err)}` }
      }
    },
  }
}
