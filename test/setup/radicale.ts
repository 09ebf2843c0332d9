import { startRadicale } from '../../scripts/lib/radicale.mjs'

/** The worker tests' Radicale, on the port vitest.worker.config.ts gave the worker. */
export default async function setup() {
  const radicale = await startRadicale({ port: Number(process.env.TEST_RADICALE_PORT) })
  if (!radicale) throw new Error('Radicale is missing: sudo apt-get install -y radicale')
  return () => radicale.stop()
}
