import type { Lang } from '../../client/lib/languages'

/**
 * A mail is data until the last step. A template turns its kind's data into a Letter (wording
 * only); layout.tsx turns a Letter into text and HTML; a provider turns the result into MIME or
 * an API call; the outbox records what happened.
 */

export interface Attachment {
  filename: string
  /** A full MIME type, parameters and all ("text/calendar; method=REQUEST"), never an extension. */
  contentType: string
  /** Text content (an .ics); providers encode it as they need. */
  content: string
}

export interface Letter {
  subject: string
  /** The line mail clients show after the subject. */
  preview: string
  greeting?: string
  paragraphs: string[]
  /**
   * Rich body HTML that stands for the paragraphs in the HTML part (the paragraphs stay the
   * text part): only ever the output of a sanitiser (worker/mail/body.ts).
   */
  sanitizedHtml?: string
  /** A code to type, shown large (one-time codes). */
  code?: string
  action?: { label: string; url: string }
  /** Further links, under the button (a guide delivered with a confirmation, say). */
  links?: { label: string; url: string }[]
  /** Label/value rows (a contact message, a booking). */
  details?: [string, string][]
  /** Free text quoted as it was written (the visitor's message). */
  quote?: string
  closing?: string
  attachments?: Attachment[]
  replyTo?: string
}

/** A rendered message, ready for any provider. */
export interface MailMessage {
  from: string
  to: string
  replyTo?: string
  subject: string
  text: string
  html: string
  headers: Record<string, string>
  attachments: Attachment[]
  /** The outbox id: the provider's idempotency key and the Message-ID's left part. */
  id: number
  language: Lang
}
