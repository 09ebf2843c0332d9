import type { MailMessage } from '../letter'

/** What a provider made of one message. `retry`: a failure that may pass (5xx, 429, time-out). */
export type SendResult =
  { ok: true; messageId: string } | { ok: false; retry: boolean; error: string }

export interface MailProvider {
  name: string
  send(message: MailMessage): Promise<SendResult>
}

/** "Name <address>" into its parts. */
export function parseAddress(value: string) {
  const m = value.match(/^\s*(?:"?([^"<]*?)"?\s*)?<([^>]+)>\s*$/)
  return m ? { name: m[1]?.trim() || undefined, email: m[2].trim() } : { email: value.trim() }
}

/** The domain of an address: the right-hand side of Message-IDs. */
export const domainOf = (address: string) =>
  parseAddress(address).email.split('@')[1] ?? 'localhost'

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err))

/** UTF-8 text as base64 (attachments travel encoded). */
export function base64(text: string) {
  const bytes = new TextEncoder().encode(text)
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}
