// `npm run staff -- add EMAIL --role ROLE | remove EMAIL | list  [--remote]`: who may open the
// agency's desk, and as what. The role lives in the account's app_metadata.role (the built-in
// auth service's D1; a hosted GoTrue: the same app_metadata, set with its admin API or
// dashboard): owner, admin, editor, sales or writer (worker/roles.ts). The site's first
// Owner is made here (`--role owner`). A new member signs in again (their session carries no
// role yet); a change of role or a removal holds at the member's next request. The desk also
// needs the account's second factor (/account).
import { parseArgs } from 'node:util'
import { queryD1 } from './lib/d1.mjs'

const ROLES = ['owner', 'admin', 'editor', 'sales', 'writer']
const usage = `usage: npm run staff -- add EMAIL --role ${ROLES.join('|')} [--remote] | remove EMAIL [--remote] | list [--remote]`

function fail(message, code = 1) {
  console.error(message)
  process.exit(code)
}

// node's own parser: `--role editor` and `--role=editor` alike, an unknown flag refused
let parsed
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { role: { type: 'string' }, remote: { type: 'boolean', default: false } },
  })
} catch (err) {
  fail(`${err.message}\n${usage}`, 2)
}
const { remote, role } = parsed.values
const [command, email] = parsed.positionals
const quote = (s) => `'${s.replaceAll("'", "''")}'`
const roleOf = "json_extract(app_metadata, '$.role')"
const staffRoles = `(${ROLES.map(quote).join(', ')})`

if (command === 'list') {
  const rows = queryD1(
    `SELECT email, ${roleOf} AS role, created_at FROM auth_users WHERE ${roleOf} IN ${staffRoles} ORDER BY email`,
    { remote },
  )
  for (const r of rows) console.log(`${r.email}\t${r.role}\t(since sign-up ${r.created_at})`)
  if (!rows.length) console.log('no staff yet: npm run staff -- add EMAIL --role owner')
} else if ((command === 'add' || command === 'remove') && email) {
  const address = email.trim().toLowerCase()
  if (command === 'add' && !ROLES.includes(role))
    fail(`--role is needed, one of ${ROLES.join(', ')}`, 2)
  const [account] = queryD1(
    `SELECT ${roleOf} AS role FROM auth_users WHERE email = ${quote(address)}`,
    { remote },
  )
  if (!account) fail(`no account for ${address}: sign up on /auth first`)
  if (command === 'remove' && !ROLES.includes(account.role) && account.role !== 'agency')
    fail(`${address} is not staff`)
  const [owner] = queryD1(`SELECT email FROM auth_users WHERE ${roleOf} = 'owner'`, { remote })
  // the site keeps exactly one Owner, handed over to an Admin, never added beside it or removed
  if (account.role === 'owner' && !(command === 'add' && role === 'owner'))
    fail(`${address} is the Owner: the site keeps exactly one, handed to an Admin, not removed`)
  if (command === 'add' && role === 'owner' && owner && owner.email !== address)
    fail(`${owner.email} is the Owner already: the site keeps exactly one, handed over, not added`)
  const value =
    command === 'add'
      ? `json_set(app_metadata, '$.role', ${quote(role)})`
      : "json_remove(app_metadata, '$.role')"
  // the role, and the team page's index of members (migrations/0034), in one request
  const index =
    command === 'add'
      ? `INSERT INTO desk_members (user_id, email) SELECT id, email FROM auth_users WHERE email = ${quote(address)} ON CONFLICT (user_id) DO NOTHING`
      : `DELETE FROM desk_members WHERE email = ${quote(address)}`
  queryD1(
    `UPDATE auth_users SET app_metadata = ${value} WHERE email = ${quote(address)}; ${index}`,
    { remote },
  )
  console.log(
    command === 'add'
      ? `${address} has the ${role} role in the desk: ${account.role ? 'it holds at their next request' : 'they sign in again, with an authenticator app (added on /account), and /desk opens'}`
      : `${address} is no longer staff`,
  )
} else {
  fail(usage, 2)
}
