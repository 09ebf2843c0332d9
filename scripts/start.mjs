// `npm start`: the production build, the local D1 migrated, a local mail catcher, the agency's
// local calendar (a CalDAV server), a local stand-in for Cloudflare Turnstile (the forms'
// challenge, with Cloudflare's test keys), a local webhook catcher, `wrangler dev` on the build,
// and the crons of wrangler.toml on their schedule. Every e-mail the site sends lands in the
// catcher's inbox; every booking in the calendar; every webhook to the webhook catcher's address
// on its page, with whether its signature verifies.
import { execFileSync, spawn } from 'node:child_process'
import { createConnection } from 'node:net'
import { startCrons } from './lib/crons.mjs'
import { LOCAL_CALDAV_USER, localCalendarUrl, startCalDavServer } from './lib/caldav-server.mjs'
import { startMailCatcher } from './lib/mail-catcher.mjs'
import { answers, wranglerDev } from './lib/server.mjs'
import { DUMMY_SECRET, DUMMY_SITE_KEY, startTurnstileStandin } from './lib/turnstile-standin.mjs'
import { startWebhookCatcher } from './lib/webhook-catcher.mjs'

const PORT = process.env.PORT || '8787'
const SMTP_PORT = Number(process.env.SMTP_PORT || 1025)
const INBOX_PORT = Number(process.env.INBOX_PORT || 1080)
const CALDAV_PORT = Number(process.env.CALDAV_PORT || 5232)
const TURNSTILE_PORT = Number(process.env.TURNSTILE_PORT || 1090)
const WEBHOOK_CATCHER_PORT = Number(process.env.WEBHOOK_CATCHER_PORT || 1095)

const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' })
run('npm', ['run', 'build', '--silent'])
run('npm', ['run', 'migrate', '--silent'])

/** Whether something already listens there (a catcher left running by an earlier start). */
const listening = (port) =>
  new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.end()
      resolve(true)
    })
    socket.on('error', () => resolve(false))
  })

let catcher = null
if (await listening(SMTP_PORT)) {
  console.log(`Mail: something already listens on ${SMTP_PORT}; e-mails go there.`)
} else {
  catcher = await startMailCatcher({ smtpPort: SMTP_PORT, webPort: INBOX_PORT })
}

let calendar = null
const calendarUrl = localCalendarUrl(`http://127.0.0.1:${CALDAV_PORT}`)
if (await listening(CALDAV_PORT)) {
  console.log(`Calendar: something already listens on ${CALDAV_PORT}; bookings go there.`)
} else {
  calendar = await startCalDavServer({
    port: CALDAV_PORT,
    file: '.wrangler/state/caldav/agency.json',
  })
}

// the forms' challenge, unless a TURNSTILE_VERIFY_URL in the environment says where to ask
let challenge = null
let challengeURL = null
if (!process.env.TURNSTILE_VERIFY_URL) {
  challengeURL = `http://127.0.0.1:${TURNSTILE_PORT}`
  if (await listening(TURNSTILE_PORT))
    console.log(`Challenge: something already listens on ${TURNSTILE_PORT}; Turnstile goes there.`)
  else challenge = await startTurnstileStandin({ port: TURNSTILE_PORT })
}

// the webhooks' endpoint to try the desk's integrations with; it reads the secrets from the
// local D1 below (.wrangler/state)
let webhooks = null
const webhooksURL = `http://127.0.0.1:${WEBHOOK_CATCHER_PORT}`
if (await listening(WEBHOOK_CATCHER_PORT))
  console.log(`Webhooks: something already listens on ${WEBHOOK_CATCHER_PORT}; no webhook catcher.`)
else webhooks = await startWebhookCatcher({ port: WEBHOOK_CATCHER_PORT })

const [cmd, ...args] = wranglerDev({
  port: PORT,
  persistTo: '.wrangler/state',
  vars: {
    SMTP_PORT,
    // webhooks may go to http://127.0.0.1 (the catcher), as never in production
    WEBHOOK_ALLOW_LOCAL: 'true',
    // the links made outside a request (the calendar's events, e-mails, reminders) name this
    // site (README: Settings); a SITE_URL in the environment wins
    ...(process.env.SITE_URL ? {} : { SITE_URL: `http://127.0.0.1:${PORT}` }),
    // a calendar configured in .dev.vars or the environment wins over the local one
    ...(process.env.CALDAV_URL
      ? {}
      : {
          CALDAV_URL: calendarUrl,
          CALDAV_USERNAME: LOCAL_CALDAV_USER.username,
          CALDAV_PASSWORD: LOCAL_CALDAV_USER.password,
        }),
    ...(challengeURL
      ? {
          TURNSTILE_SCRIPT_URL: `${challengeURL}/turnstile/v0/api.js`,
          TURNSTILE_VERIFY_URL: `${challengeURL}/turnstile/v0/siteverify`,
          TURNSTILE_SITE_KEY: DUMMY_SITE_KEY,
          TURNSTILE_SECRET_KEY: DUMMY_SECRET,
        }
      : {}),
  },
})
const wrangler = spawn(cmd, args, {
  stdio: 'inherit',
  env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
})
let crons = null

const stop = () => {
  crons?.stop()
  catcher?.stop()
  calendar?.stop()
  challenge?.stop()
  webhooks?.stop()
  wrangler.kill('SIGTERM')
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
wrangler.on('exit', (code) => {
  crons?.stop()
  catcher?.stop()
  calendar?.stop()
  challenge?.stop()
  webhooks?.stop()
  process.exit(code ?? 0)
})

const site = `http://127.0.0.1:${PORT}`
if (await answers(site)) {
  crons = startCrons({ baseURL: site })
  const next = crons
    .next()
    .map(({ cron, at }) => `${cron} (next ${at.toISOString().slice(11, 16)} UTC)`)
    .join(', ')
  console.log(
    `\n  Site:  ${site}\n` +
      (catcher
        ? `  Inbox: ${catcher.webURL}  (every e-mail the site sends; npm run outbox lists their status)\n`
        : '') +
      `  Calendar: ${calendarUrl}  (CalDAV, ${LOCAL_CALDAV_USER.username} / ${LOCAL_CALDAV_USER.password}: the agency's busy times and bookings)\n` +
      (challengeURL
        ? `  Challenge: local Turnstile stand-in at ${challengeURL}  (Cloudflare's test keys: every form passes)\n`
        : '') +
      (webhooks
        ? `  Webhooks: ${webhooksURL}  (add ${webhooksURL}/slack, or any path, as an endpoint in /desk/integrations; each delivery shows there, and whether its signature verifies)\n`
        : '') +
      `  Crons: ${next}; npm run cron -- daily fires one now\n`,
  )
}
