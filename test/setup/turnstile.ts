import { startTurnstileStandin } from '../../scripts/lib/turnstile-standin.mjs'

/** The worker tests' Turnstile stand-in, on the port vitest.worker.config.ts gave the worker. */
export default async function setup() {
  const standin = await startTurnstileStandin({ port: Number(process.env.TEST_TURNSTILE_PORT) })
  return () => standin.stop()
}
