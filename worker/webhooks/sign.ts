import { Webhook } from 'standardwebhooks'
import { randomHex } from '../hash'

/**
 * Standard Webhooks signatures: HMAC-SHA256 over `id.timestamp.body` with the endpoint's
 * `whsec_` secret, by the `standardwebhooks` package (the receiver verifies with the same).
 */

/** An event's id, every delivery's webhook-id: msg_ and 128 random bits. */
export const newEventId = () => `msg_${randomHex(16)}`

/** A new endpoint secret: `whsec_` and the base64 of 32 random bytes. */
export function newSecret() {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return `whsec_${btoa(String.fromCharCode(...bytes))}`
}

/** How long the secret before a rotation still signs (both signatures are sent meanwhile). */
export const ROTATION_OVERLAP_MS = 24 * 3600_000

export interface Secrets {
  secret: string
  previous_secret: string | null
  previous_until: string | null
}

/**
 * The three headers of one attempt. During a rotation (previous_until still ahead) both
 * signatures go, space-separated: a receiver with either secret verifies.
 */
export function signedHeaders(msgId: string, at: Date, body: string, s: Secrets) {
  const signatures = [new Webhook(s.secret).sign(msgId, at, body)]
  if (s.previous_secret && s.previous_until && Date.parse(s.previous_until) > at.getTime())
    signatures.push(new Webhook(s.previous_secret).sign(msgId, at, body))
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  }
}
