// `npm start`: the production build, the local D1 migrated, a local mail catcher, `wrangler dev`
// on the build, and the crons of wrangler.toml on their schedule. Every e-mail the site sends
// lands in the catcher's inbox.
import { execFileSync, spawn } from 'node:child_process'
import { createConnection } from 'node:net'
import { startCrons } from './lib/crons.mjs'
import { startMailCatcher } from './lib/mail-catcher.mjs'
import { answers, wranglerDev } from './lib/server.mjs'

const PORT = process.env.PORT || '8787'
const SMTP_PORT = Number(process.env.SMTP_PORT || 1025)
const INBOX_PORT = Number(process.env.INBOX_PORT || 1080)

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

const [cmd, ...args] = wranglerDev({
  port: PORT,
  persistTo: '.wrangler/state',
  vars: { SMTP_PORT },
})
const wrangler = spawn(cmd, args, {
  stdio: 'inherit',
  env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
})
let crons = null

const stop = () => {
  crons?.stop()
  catcher?.stop()
  wrangler.kill('SIGTERM')
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
wrangler.on('exit', (code) => {
  crons?.stop()
  catcher?.stop()
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
      `  Crons: ${next}; npm run cron -- daily fires one now\n`,
  )
}
