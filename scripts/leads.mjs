// `npm run leads`: the leads in D1 (subscribers with their consent status: pending, confirmed,
// unsubscribed; guide requests, contact messages, bookings), as the agency would read them in
// the D1 console.
//   npm run leads                  tables of subscribers, guide requests, contact messages
//   npm run leads -- --csv         the same as CSV (one block per table), for a spreadsheet
//   npm run leads -- --remote      the production database instead of the local one
//   npm run leads -- --since 2026-11-01   only leads from that day on
import { queryD1 } from './lib/d1.mjs'

const args = process.argv.slice(2)
const csv = args.includes('--csv')
const remote = args.includes('--remote')
const since = args.includes('--since') ? args[args.indexOf('--since') + 1] : null
if (since && !/^\d{4}-\d{2}-\d{2}$/.test(since)) throw new Error('--since takes a date, YYYY-MM-DD')

const TABLES = {
  subscribers:
    'id, created_at, email, name, status, signup_form, language, consent_version, consented_at, confirmed_at, unsubscribed_at',
  guide_requests: 'id, created_at, email, name, guide, language',
  contact_messages: 'id, created_at, name, email, company, service, budget, language, message',
  bookings: 'id, created_at, slot_start, name, email, time_zone, language, notes',
}

function select(table, columns) {
  const where = since ? ` WHERE created_at >= '${since}'` : ''
  const sql = `SELECT ${columns} FROM ${table}${where} ORDER BY id`
  return queryD1(sql, { remote })
}

const cell = (v) => (v === null || v === undefined ? '' : String(v))
const csvCell = (v) => (/[",\n\r]/.test(cell(v)) ? `"${cell(v).replaceAll('"', '""')}"` : cell(v))
const clip = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s)

for (const [table, columns] of Object.entries(TABLES)) {
  const rows = select(table, columns)
  const names = columns.split(', ')
  if (csv) {
    console.log(`# ${table}`)
    console.log(names.join(','))
    for (const row of rows) console.log(names.map((n) => csvCell(row[n])).join(','))
    console.log()
    continue
  }
  console.log(`\n${table} (${rows.length})`)
  if (!rows.length) continue
  const texts = rows.map((r) => names.map((n) => clip(cell(r[n]).replace(/\s+/g, ' '), 48)))
  const widths = names.map((n, i) => Math.max(n.length, ...texts.map((t) => t[i].length)))
  console.log(names.map((n, i) => n.padEnd(widths[i])).join('  '))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const t of texts) console.log(t.map((c, i) => c.padEnd(widths[i])).join('  '))
}
