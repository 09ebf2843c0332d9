// `npm run staff -- add|remove|list [EMAIL] [--remote]`: who may open the agency's desk.
// Staff carry app_metadata.role = "agency" in the built-in auth service (a hosted GoTrue: set the
// same app_metadata with its admin API or dashboard). The role takes effect at the next sign-in;
// the desk also needs the account's second factor (an authenticator app on /account).
import { queryD1 } from './lib/d1.mjs'

const args = process.argv.slice(2)
const remote = args.includes('--remote')
const [command, email] = args.filter((a) => !a.startsWith('--'))
const quote = (s) => `'${s.replaceAll("'", "''")}'`

if (command === 'list') {
  const rows = queryD1(
    "SELECT email, created_at FROM auth_users WHERE json_extract(app_metadata, '$.role') = 'agency' ORDER BY email",
    { remote },
  )
  for (const r of rows) console.log(`${r.email}\t(since sign-up ${r.created_at})`)
  if (!rows.length) console.log('no staff yet: npm run staff -- add EMAIL')
} else if ((command === 'add' || command === 'remove') && email) {
  const address = email.trim().toLowerCase()
  const value =
    command === 'add'
      ? "json_set(app_metadata, '$.role', 'agency')"
      : "json_remove(app_metadata, '$.role')"
  const rows = queryD1(
    `UPDATE auth_users SET app_metadata = ${value} WHERE email = ${quote(address)} RETURNING email`,
    { remote },
  )
  if (!rows.length) {
    console.error(`no account for ${address}: sign up on /auth first`)
    process.exit(1)
  }
  console.log(
    command === 'add'
      ? `${address} is staff: sign in again, with the authenticator app, to open /desk`
      : `${address} is no longer staff`,
  )
} else {
  console.error('usage: npm run staff -- add|remove EMAIL [--remote] | list [--remote]')
  process.exit(2)
}
