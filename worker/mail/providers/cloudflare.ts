import { EmailMessage } from 'cloudflare:email'
import { createMimeMessage } from 'mimetext'
import type { Bindings } from '../../env'
import { base64, domainOf, errorText, parseAddress, type MailProvider } from './provider'

/** Cloudflare Email Service: the `send_email` binding, with MIME built by mimetext. */
export function cloudflareProvider(env: Bindings): MailProvider {
  return {
    name: 'cloudflare',
    async send(m) {
      const messageId = `<outbox-${m.id}@${domainOf(m.from)}>`
      const from = parseAddress(m.from)
      const mime = createMimeMessage()
      mime.setSender({ name: from.name, addr: from.email })
      mime.setRecipient(m.to)
      mime.setSubject(m.subject)
      mime.setHeader('Message-ID', messageId)
      if (m.replyTo) mime.setHeader('Reply-To', m.replyTo)
      for (const [k, v] of Object.entries(m.headers)) mime.setHeader(k, v)
      mime.addMessage({ contentType: 'text/plain', data: m.text })
      mime.addMessage({ contentType: 'text/html', data: m.html })
      for (const a of m.attachments)
        mime.addAttachment({
          filename: a.filename,
          contentType: a.contentType,
          data: base64(a.content),
        })
      try {
        await env.SEND_EMAIL.send(new EmailMessage(from.email, m.to, mime.asRaw()))
        return { ok: true, messageId }
      } catch (err) {
        return { ok: false, retry: true, error: `cloudflare: ${errorText(err)}` }
      }
    },
  }
}
