// `npm run outbox`: the e-mails the site has queued in the local D1 outbox (booking
// confirmations and, later, account e-mails), newest first, so a developer can follow them.
//   npm run outbox -- --last 5     only the newest five
import { queryD1 } from './lib/d1.mjs'

const args = process.argv.slice(2)
const last = args.includes('--last') ? Number(args[args.indexOf('--last') + 1]) : 20
if (!Number.isInteger(last) || last < 1) throw new Error('--last takes a positive whole number')
const sql = `SELECT id, created_at, to_address, subject, body_text FROM outbox ORDER BY id DESC LIMIT ${last}`
const mails = queryD1(sql)
if (!mails.length) console.log('The outbox is empty.')
for (const m of mails) {
  console.log(
    `\n#${m.id}  ${m.created_at}\nTo: ${m.to_address}\nSubject: ${m.subject}\n\n${m.body_text}\n${'-'.repeat(60)}`,
  )
}
