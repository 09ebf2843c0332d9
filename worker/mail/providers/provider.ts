import type { MailMessage } from '../letter'

/**
 * What a provider made of one call. `retry`: a failure that may pass (5xx, a time-out);
 * `retryAfter`: the provider's own "later" (429), in seconds: a wait, not a failed attempt.
 */
export type Refusal = { ok: false; retry: boolean; error: string; retryAfter?: number }
export type SendResult = { ok: true; messageId: string } | Refusal
/** A batch call: the message ids in the order sent (null where the provider gave none). */
export type BatchResult = { ok: true; messageIds: (string | null)[] } | Refusal

export interface MailProvider {
  name: string
  /** Calls a second the provider allows (its setting in wrangler.toml; worker/mail/pace.ts). */
  rate: number
  send(message: MailMessage): Promise<SendResult>
  /**
   * Many messages in one call, where the provider has a batch API (Resend: 100). `key`: the
   * call's idempotency key, the same on every retry of the same messages.
   */
  batch?: { size: number; send(messages: MailMessage[], key: string): Promise<BatchResult> }
}

/** A rate setting ("2", "0.5"), or the provider's default when empty or not a positive number. */
export function rateOf(setting: string | undefined, fallback: number) {
  const rate = Number(setting)
  return setting && Number.isFinite(rate) && rate > 0 ? rate : fallback
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
