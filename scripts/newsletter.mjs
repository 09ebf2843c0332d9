// `npm run newsletter -- FILE`: a newsletter issue for scripts (the desk's /desk/newsletters is
// the agency's way). It is stored scheduled for now: the next five-minute cron starts sending it
// to every confirmed subscriber, in their language (worker/newsletter/send.ts).
//   FILE: JSON, {"en": {"subject": "…", "body": "Markdown…"}, "ar": {…}, …}; English is
//         required and stands in for a language the issue does not have. The older form,
//         {"subject": "…", "paragraphs": ["…", "…"]} per language, is still read.
//   --remote         the production database; the next 5-minute cron sends it
//   --site URL       origin its links point to (default: SITE_URL)
//   --persist-to DIR another local state than `npm start`'s (.wrangler/state)
import { readFileSync } from 'node:fs'
import { queryD1 } from './lib/d1.mjs'

const LANGS = ['en', 'es', 'fr', 'de', 'ar', 'pt']
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
const texts = []
for (const [lang, issue] of Object.entries(content)) {
  if (!LANGS.includes(lang)) throw new Error(`${lang}: not one of ${LANGS.join(', ')}`)
  const subject = typeof issue?.subject === 'string' ? issue.subject.trim() : ''
  if (!subject || subject.length > 200) throw new Error(`${lang}: a subject (1–200) is required`)
  const body =
    typeof issue.body === 'string'
      ? issue.body
      : Array.isArray(issue.paragraphs) && issue.paragraphs.every((p) => typeof p === 'string')
        ? issue.paragraphs.join('\n\n')
        : null
  if (!body?.trim() || body.length > 50_000)
    throw new Error(`${lang}: a body (Markdown, at most 50,000 characters) is required`)
  texts.push({ lang, subject, body })
}
if (!texts.some((t) => t.lang === 'en')) throw new Error('the English issue ("en") is required')

const quote = (s) => `'${s.replaceAll("'", "''")}'`
const now = new Date().toISOString()
const [row] = queryD1(
  `INSERT INTO newsletter_issues (status, send_at, site_url, created_by, updated_by)
   VALUES ('scheduled', ${quote(now)}, ${quote(site)}, 'npm run newsletter', 'npm run newsletter')
   RETURNING id`,
  { remote, persistTo },
)
queryD1(
  `INSERT INTO newsletter_texts (issue_id, lang, subject, body) VALUES ${texts
    .map((t) => `(${row.id}, ${quote(t.lang)}, ${quote(t.subject)}, ${quote(t.body)})`)
    .join(', ')}`,
  { remote, persistTo },
)
const [{ n }] = queryD1("SELECT COUNT(*) AS n FROM subscribers WHERE status = 'confirmed'", {
  remote,
  persistTo,
})
console.log(
  `newsletter ${row.id} scheduled for ${n} confirmed subscribers (/desk/newsletters/${row.id})`,
)
console.log(
  remote
    ? 'the cron starts it within 5 minutes'
    : "npm start's cron starts it within 5 minutes (npm run cron -- frequent: now)",
)
