// `npm run outbox`: every e-mail the site wrote, newest first, with its delivery status,
// attempts and last error (the local D1 of `npm start`, or production with --remote).
//   npm run outbox -- --last 5           only the newest five
//   npm run outbox -- --status failed    only those in one status
//   npm run outbox -- --remote           the production database
import { queryD1 } from './lib/d1.mjs'

const args = process.argv.slice(2)
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
const last = Number(option('--last') ?? 20)
if (!Number.isInteger(last) || last < 1) throw new Error('--last takes a positive whole number')
const status = option('--status')
const STATUSES = ['queued', 'sending', 'sent', 'failed', 'suppressed']
if (status && !STATUSES.includes(status))
  throw new Error(`--status is one of ${STATUSES.join(', ')}`)
const where = status ? `WHERE status = '${status}'` : ''
const mails = queryD1(
  `SELECT id, created_at, sent_at, kind, language, to_address, subject, status, attempts,
          provider, provider_message_id, last_error
   FROM mail_outbox ${where} ORDER BY id DESC LIMIT ${last}`,
  { remote: args.includes('--remote') },
)
if (!mails.length) console.log('No e-mails.')
for (const m of mails) {
  console.log(
    [
      `#${m.id}  ${m.status.toUpperCase()}  ${m.kind} (${m.language})  written ${m.created_at}` +
        (m.sent_at ? `, sent ${m.sent_at}` : ''),
      `  To: ${m.to_address}`,
      `  Subject: ${m.subject}`,
      `  Attempts: ${m.attempts}${m.provider ? ` via ${m.provider}` : ''}` +
        (m.provider_message_id ? `, message ${m.provider_message_id}` : ''),
      ...(m.last_error ? [`  Last error: ${m.last_error}`] : []),
    ].join('\n'),
  )
}
