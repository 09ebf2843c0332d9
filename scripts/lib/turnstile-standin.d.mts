export const DUMMY_SITE_KEY: string
export const DUMMY_SECRET: string
export const FAILING_SECRET: string
export const SPENT_SECRET: string
export const DUMMY_TOKEN: string
/** One siteverify call as the stand-in received it (the secret's first two characters only). */
export interface StandinVerification {
  secret: string
  token: string
  remoteip: string
  idempotency_key: string
  at: string
}
export interface TurnstileStandin {
  url: string
  scriptURL: string
  verifyURL: string
  stop(): Promise<void>
}
export function startTurnstileStandin(options?: { port?: number }): Promise<TurnstileStandin>
