// `npm run newsletter -- FILE`: stores a newsletter issue for the cron to send to every
// confirmed subscriber, in their language (worker/services/newsletter.ts).
//   FILE: JSON, {"en": {"subject": "…", "paragraphs": ["…", "…"]}, "ar": {…}, …}; English is
//         required and stands in for a language the issue does not have.
//   --remote         the production database; the next 5-minute cron sends it
//   --site URL       origin its links point to (default: SITE_URL)
//   --persist-to DIR another local state than `npm start`'s (.wrangler/state)
import { readFileSync } from 'node:fs'
import { queryD1 } from './lib/d1.mjs'

const args = process.argv.slice(2)
const remote = args.includes('--remote')
const valueOf = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined)
const file = args.find(
  (a) => !a.startsWith('--') && !['--site', '--persist-to'].includes(args[args.indexOf(a) - 1]),
)
if (!file) {
  console.error('usage: npm run newsletter -- issue.json [--remote] [--site https://…]')
  process.exit(2)
}
const site = valueOf('--site') ?? ''
const persistTo = valueOf('--persist-to')

const content = JSON.parse(readFileSync(file, 'utf8'))
for (const [lang, issue] of Object.entries(content)) {
  if (typeof issue?.subject !== 'string' || !issue.subject.trim())
    throw new Error(`${lang}: a subject is required`)
  if (!Array.isArray(issue.paragraphs) || !issue.paragraphs.every((p) => typeof p === 'string'))
    throw new Error(`${lang}: paragraphs must be a list of texts`)
}
if (!content.en) throw new Error('the English issue ("en") is required')

const quote = (s) => `'${s.replaceAll("'", "''")}'`
const [row] = queryD1(
  `INSERT INTO newsletters (content, site_url) VALUES (${quote(JSON.stringify(content))}, ${quote(site)}) RETURNING id`,
  { remote, persistTo },
)
const [{ n }] = queryD1("SELECT COUNT(*) AS n FROM subscribers WHERE status = 'confirmed'", {
  remote,
  persistTo,
})
console.log(`newsletter ${row.id} stored for ${n} confirmed subscribers`)
console.log(
  remote
    ? 'the cron sends it within 5 minutes'
    : "npm start's cron sends it within 5 minutes (npm run cron -- frequent: now)",
)
