// `npm run cron -- daily`: fires one cron trigger at the running local site (`npm start`), through
// the Worker's scheduled handler, as Cloudflare would at its time.
//   daily      0 7 * * *   the agency's digest, the retention clean-up
//   frequent   */5 * * * * scheduled newsletters start, content goes live, stale e-mails re-queued
//   or any expression of wrangler.toml's [triggers] crons
// BASE_URL (default http://127.0.0.1:8787) names another local server.
import { CRON_NAMES, configuredCrons, fireCron } from './lib/crons.mjs'

const name = process.argv[2]
const cron = CRON_NAMES[name] ?? name
if (!cron || !configuredCrons().includes(cron)) {
  console.error(`usage: npm run cron -- ${Object.keys(CRON_NAMES).join('|')}|"<cron expression>"`)
  process.exit(2)
}
const baseURL = process.env.BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`
try {
  const { ok, status, text } = await fireCron(baseURL, cron)
  console.log(ok ? text : `cron ${cron} failed (${status}): ${text}`)
  process.exit(ok ? 0 : 1)
} catch (err) {
  console.error(
    `no local site answers at ${baseURL} (${err?.cause?.code ?? err}); start it with npm start`,
  )
  process.exit(1)
}
