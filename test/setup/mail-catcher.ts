import { startMailCatcher } from '../../scripts/lib/mail-catcher.mjs'

/** The worker tests' mail catcher, on the ports vitest.worker.config.ts gave the worker. */
export default async function setup() {
  const catcher = await startMailCatcher({
    smtpPort: Number(process.env.TEST_MAIL_SMTP_PORT),
    webPort: Number(process.env.TEST_MAIL_WEB_PORT),
  })
  return () => catcher.stop()
}
