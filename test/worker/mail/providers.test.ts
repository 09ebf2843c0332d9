import { env } from 'cloudflare:test'
import PostalMime from 'postal-mime'
import { describe, expect, it } from 'vitest'
import type { Bindings } from '../../../worker/bindings'
import { deliver } from '../../../worker/mail/deliver'
import { mimeOf } from '../../../worker/mail/providers/cloudflare'
import { renderMail } from '../../../worker/mail/render'
import { queuedRow, rowById } from './helpers'

// Cloudflare Email Service: the send_email binding, stubbed, receives the MIME mimetext built.

describe('delivery through the send_email binding (MAIL_PROVIDER = "cloudflare")', () => {
  it('hands over one complete MIME message: text, HTML, the .ics, Reply-To and a Message-ID', async () => {
    const sent: { from: string; to: string; raw: string }[] = []
    const binding = {
      send: async (message: { from: string; to: string; raw: ReadableStream }) => {
        sent.push({
          from: message.from,
          to: message.to,
          raw: await new Response(message.raw).text(),
        })
      },
    }
    const cloudflare = {
      ...env,
      MAIL_PROVIDER: 'cloudflare',
      SEND_EMAIL: binding,
    } as unknown as Bindings
    const to = `cf-${crypto.randomUUID().slice(0, 8)}@example.org`
    const id = await queuedRow({
      kind: 'agency_booking',
      category: 'agency',
      to_address: to,
      data: {
        name: 'Ada Lovelace',
        email: 'ada@example.org',
        slotStart: '2026-12-01T10:00:00.000Z',
        timeZone: 'Europe/London',
        token: '3f0c2b1e-1111-4c4c-9a9a-123456789abc',
        language: 'en',
      },
    })
    const result = await deliver(cloudflare, id, 1)
    expect((await rowById(id))!.last_error).toBeNull()
    expect(result).toEqual({ done: true })
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ from: 'hello@growthagency.example', to })
    // the MIME it was handed, as a mail client reads it
    const row = (await rowById(id))!
    const { raw } = mimeOf(await renderMail(cloudflare, { ...row, status: 'sending' }))
    const mail = await PostalMime.parse(raw, { attachmentEncoding: 'utf8' })
    expect(mail.messageId).toBe(`<outbox-${id}@growthagency.example>`)
    expect(mail.replyTo?.[0].address).toBe('ada@example.org')
    expect(mail.text).toContain('Ada Lovelace')
    expect(mail.html).toContain('<html lang="en" dir="ltr"')
    expect(mail.attachments.map((a) => a.mimeType)).toEqual(['text/calendar'])
    expect(String(mail.attachments[0].content)).toContain('BEGIN:VEVENT')
    expect(await rowById(id)).toMatchObject({ status: 'sent', provider: 'cloudflare' })
  })
})
