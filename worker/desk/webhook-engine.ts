/**
 * TEMPORARY: the webhook engine's entry points the desk calls, until the engine (worker/webhooks/,
 * written in parallel) exports its own: sendTestEvent, replayDelivery, replayFailedSince and
 * rotateSecret (notes/plan59.md). What exists already is re-exported.
 */
import { rotateEndpointSecret } from '../db/webhooks'
import { newSecret, ROTATION_OVERLAP_MS } from '../webhooks/sign'

export { isAllowedUrl } from '../webhooks/address'
export { EVENT_TYPES } from '../webhooks/events'
export { newSecret }

export async function rotateSecret(db: D1Database, endpointId: number) {
  const secret = newSecret()
  const until = new Date(Date.now() + ROTATION_OVERLAP_MS).toISOString()
  return (await rotateEndpointSecret(db, endpointId, secret, until)) ? secret : null
}

export async function sendTestEvent(_env: unknown, _ctx: unknown, _endpointId: number) {
  throw new Error('webhook engine not there yet')
}
export async function replayDelivery(_env: unknown, _ctx: unknown, _deliveryId: number) {
  throw new Error('webhook engine not there yet')
}
export async function replayFailedSince(
  _env: unknown,
  _ctx: unknown,
  _sinceIso: string,
): Promise<number> {
  throw new Error('webhook engine not there yet')
}
