import { env } from 'cloudflare:test'
import PostalMime, { type Email } from 'postal-mime'
import type { OutboxRow } from '../../worker/db/outbox'

/**
 * The tests' view of the mail: the outbox rows a request wrote (at once, in its batch), and the
 * messages the queue then delivered to the tests' mail catcher (maildev), parsed as a mail
 * client would.
 */

export type Mail = {
  subject: string
  /** The plain-text part. */
  body_text: string
  html: string
  replyTo?: string
  attachments: { filename: string | null; mimeType: string; content: string }[]
}

/** The outbox rows of every e-mail written to the address, oldest first. */
export const outboxRows = async (to: string) =>
  (
    await env.DB.prepare('SELECT * FROM mail_outbox WHERE to_address = ? ORDER BY id')
      .bind(to)
      .all<OutboxRow>()
  ).results

/** How long a test waits for an e-mail before it fails: a hang guard, not a measure. */
export const MAIL_WAIT_MS = 60_000

/** Every message delivered to the address so far (its subject matching), parsed, oldest first. */
export async function parsedMailsTo(to: string, subject?: RegExp): Promise<Email[]> {
  // only the address's (maildev filters by field, exactly: the site writes addresses in lower
  // case): the whole inbox, parsed in the test's isolate every 100 ms of a wait, grew to
  // hundreds of messages over the files sharing the catcher
  const url = `${env.MAIL_CATCHER_URL}/api/email?to.address=${encodeURIComponent(to.toLowerCase())}`
  const list = (await (await fetch(url)).json()) as {
    id: string
    subject: string
  }[]
  const mine = list.filter((m) => !subject || subject.test(m.subject))
  return Promise.all(
    mine.map(async ({ id }) => {
      const raw = await (await fetch(`${env.MAIL_CATCHER_URL}/api/email/${id}/source`)).text()
      return PostalMime.parse(raw, { attachmentEncoding: 'utf8' })
    }),
  )
}

/** Every message delivered to the address so far, oldest first. */
export async function mailsTo(to: string): Promise<Mail[]> {
  return (await parsedMailsTo(to)).map((m) => ({
    subject: m.subject ?? '',
    body_text: m.text ?? '',
    html: m.html ?? '',
    replyTo: m.replyTo?.[0]?.address,
    attachments: m.attachments.map((a) => ({
      filename: a.filename,
      mimeType: a.mimeType,
      content: String(a.content),
    })),
  }))
}

/**
 * The newest message to the address, once at least `count` have arrived. The 60 s are a hang
 * guard, as the browser tests' (test/e2e/inbox.ts): the files of a workerd share its mail
 * queue, and beside two busy loops a confirmation waited behind the others' deliveries for
 * more than the 10 s this had.
 */
export async function lastMail(to: string, count = 1): Promise<Mail> {
  const deadline = Date.now() + MAIL_WAIT_MS
  while (Date.now() < deadline) {
    const mails = await mailsTo(to)
    if (mails.length >= count) return mails[mails.length - 1]
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`fewer than ${count} e-mails to ${to} arrived`)
}
