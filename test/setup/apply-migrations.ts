import { applyD1Migrations, env, type D1Migration } from 'cloudflare:test'

declare global {
  namespace Cloudflare {
    interface Env {
      DB: D1Database
      TEST_MIGRATIONS: D1Migration[]
      /** The tests' mail catcher's web API (vitest.worker.config.ts). */
      MAIL_CATCHER_URL: string
      /** The tests' Radicale, a CalDAV server (vitest.worker.config.ts). */
      TEST_RADICALE_URL: string
      /** The tests' Turnstile stand-in's base URL, for its /__standin/verifications. */
      TURNSTILE_STANDIN_URL: string
      /** The tests' webhook receiver (test/setup/webhook-receiver.ts). */
      WEBHOOK_RECEIVER_URL: string
    }
  }
}

// Applies only what is not applied yet, so running it per test file is safe.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
