/** An endpoint's secrets, as webhook_endpoints holds them. */
export interface EndpointSecrets {
  secret: string
  previous_secret: string | null
  previous_until: string | null
}
export const START_D1_DIR: string
export function d1DirOf(persistTo: string): string
export const VERIFIED: 'verified'
export const NOT_VERIFIED: 'signature does not verify'
export const NO_ENDPOINT: 'no endpoint with this URL'
export type Verification = typeof VERIFIED | typeof NOT_VERIFIED | typeof NO_ENDPOINT
/** One POST as the catcher kept it. */
export interface CaughtDelivery {
  at: string
  path: string
  headers: { 'webhook-id'?: string; 'webhook-timestamp'?: string; 'webhook-signature'?: string }
  body: string
  verification: Verification
  reason?: string
}
export function secretsFromD1(dir?: string): (url: string) => EndpointSecrets[]
export function verifyDelivery(
  endpoints: EndpointSecrets[],
  body: string,
  headers: Record<string, string>,
  now?: Date,
): { verification: Verification; reason?: string }
export interface WebhookCatcher {
  port: number
  url: string
  deliveries(): CaughtDelivery[]
  stop(): Promise<void>
}
export function startWebhookCatcher(options?: {
  port?: number
  d1Dir?: string
  secrets?: (url: string) => EndpointSecrets[]
}): Promise<WebhookCatcher>
