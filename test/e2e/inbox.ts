import PostalMime, { type Email } from 'postal-mime'
import { inject } from 'vitest'

/** The browser tests' local inbox (maildev), where the servers deliver every e-mail. */
export const inboxURL = () => inject('mailCatcherURL')

/**
 * The newest e-mail delivered to `to` (whose subject matches, when given), parsed as a mail
 * client would, once it has arrived: delivery goes through the queue, so it takes a moment.
 */
export async function mailTo(to: string, subject?: RegExp, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    // only the address's (maildev filters by field): the whole inbox, every 250 ms from each
    // waiting test, was hundreds of messages by the end of a run
    const mine = `${inboxURL()}/api/email?to.address=${encodeURIComponent(to)}`
    const list = (await (await fetch(mine)).json()) as {
      id: string
      subject: string
      to: { address: string }[]
    }[]
    const found = list
      .filter((m) => m.to.some((t) => t.address === to) && (!subject || subject.test(m.subject)))
      .at(-1)
    if (found) {
      const raw = await (await fetch(`${inboxURL()}/api/email/${found.id}/source`)).text()
      const parsed: Email = await PostalMime.parse(raw, { attachmentEncoding: 'utf8' })
      return { id: found.id, raw, ...parsed }
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`no e-mail to ${to}${subject ? ` matching ${subject}` : ''} arrived`)
}

/** The first link of an e-mail's text that points at the site. */
export const siteLink = (text: string) => new URL(text.match(/https?:\/\/\S+/)![0])
