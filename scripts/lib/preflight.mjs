// The deploy's pre-flight (scripts/deploy.mjs): everything it checks before it creates anything,
// and what `npm run deploy -- --dry-run` does. Each problem is a refusal with its fix and, where
// the fix is on the dashboard, its link; a refusal is overridden only by the flag it names.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { unreachableHost as unreachable } from '../../worker/mail/smtp-reach.mjs'
import { cloudflareApi, errorCodes, wranglerError, wranglerRun } from './cloudflare.mjs'

/** The D1 API takes a migration file as one query, and a query has at most 100 KB. */
export const MIGRATION_FILE_LIMIT = 100_000

/** A page of the account's dashboard, for a refusal's fix. */
export const dash = (accountId, path) => `https://dash.cloudflare.com/${accountId}/${path}`

/** A placeholder address: a reserved example domain (RFC 2606) or none. */
const placeholder = (address = '') =>
  !/@/.test(address) || /@([\w-]+\.)*(example|test|invalid|localhost)(\.[a-z]+)?\b/i.test(address)

/**
 * The settings production would refuse or that would leave a promise unkept, read from
 * wrangler.toml alone (no account needed). `secrets`: the names set on the Worker, when known.
 */
export function reviewSettings(
  vars,
  { allowNoMail = false, allowNoChallenge = false, secrets } = {},
) {
  const refusals = []
  const warnings = []
  /** What stops e-mail from leaving, each with its own fix. */
  const mail = []
  const provider = vars.MAIL_PROVIDER
  if (provider === 'smtp') {
    if (unreachable(vars.SMTP_HOST))
      mail.push({
        what: `MAIL_PROVIDER is smtp and SMTP_HOST is ${vars.SMTP_HOST || 'empty'}, an address Cloudflare cannot reach (the local catcher's, or a private network's): no e-mail can leave`,
        fix: 'set SMTP_HOST and SMTP_USER to your relay in wrangler.toml and its password with npx wrangler secret put SMTP_PASS, or MAIL_PROVIDER to resend or cloudflare (docs/mail.md)',
      })
    else if (String(vars.SMTP_PORT) === '25')
      mail.push({
        what: 'SMTP_PORT is 25, which Workers cannot connect to',
        fix: "set SMTP_PORT to the relay's 465 or 587 in wrangler.toml",
      })
    if (secrets && !unreachable(vars.SMTP_HOST) && !secrets.has('SMTP_PASS'))
      warnings.push(
        'MAIL_PROVIDER is smtp but the secret SMTP_PASS is not set (a relay without a password?)',
      )
  } else if (provider === 'resend') {
    if (secrets && !secrets.has('RESEND_API_KEY'))
      mail.push({
        what: 'MAIL_PROVIDER is resend but the secret RESEND_API_KEY is not set',
        fix: 'npx wrangler secret put RESEND_API_KEY, with a key from resend.com/api-keys',
      })
  } else if (provider !== 'cloudflare')
    mail.push({
      what: `MAIL_PROVIDER is "${provider ?? ''}"`,
      fix: 'set MAIL_PROVIDER to smtp, resend or cloudflare in wrangler.toml (docs/mail.md)',
    })
  if (placeholder(vars.MAIL_FROM))
    mail.push({
      what: `MAIL_FROM is "${vars.MAIL_FROM ?? ''}", a placeholder sender`,
      fix: 'set MAIL_FROM in wrangler.toml to an address on a domain your mail provider has verified',
    })
  if (mail.length) {
    const consequence =
      vars.AUTH_AUTOCONFIRM === 'true'
        ? 'no visitor would get a confirmation, a guide or a booking e-mail'
        : 'no visitor would get a confirmation, a guide or a booking e-mail, and with AUTH_AUTOCONFIRM = "false" no one could ever confirm a sign-up'
    for (const { what, fix } of mail)
      (allowNoMail ? warnings : refusals).push({
        what: `mail: ${what}`,
        fix: allowNoMail
          ? `allowed by --allow-no-mail: ${consequence}`
          : `${fix}. Otherwise ${consequence}; to deploy without mail all the same, --allow-no-mail`,
      })
  }
  if (placeholder(vars.AGENCY_EMAIL))
    warnings.push(
      `AGENCY_EMAIL is ${vars.AGENCY_EMAIL}, the placeholder: visitors would write to it`,
    )
  if (vars.CALDAV_URL && secrets && !secrets.has('CALDAV_PASSWORD'))
    refusals.push({
      what: `calendar: CALDAV_URL is set but the secret CALDAV_PASSWORD is not`,
      fix: 'npx wrangler secret put CALDAV_PASSWORD, or empty CALDAV_URL (docs/booking.md)',
    })
  if (vars.AUTH_URL && secrets && !secrets.has('AUTH_API_KEY'))
    refusals.push({
      what: 'sign-in: AUTH_URL is set but the secret AUTH_API_KEY is not',
      fix: 'npx wrangler secret put AUTH_API_KEY, or empty AUTH_URL for the built-in service',
    })
  const challenge = challengeProblems(vars, secrets)
  for (const { what, fix } of challenge)
    (allowNoChallenge ? warnings : refusals).push({
      what: `bots: ${what}`,
      fix: allowNoChallenge
        ? 'allowed by --allow-no-challenge: the challenge is off (TURNSTILE_ENABLED = "false"), and any script can make the site e-mail strangers through its forms'
        : `${fix} (docs/bots.md). To deploy without a challenge all the same, --allow-no-challenge`,
    })
  return {
    refusals,
    warnings: warnings.map((w) => (typeof w === 'string' ? w : `${w.what} (${w.fix})`)),
    /** The deploy turns the challenge off: allowed, and it could not run. */
    challengeOff: allowNoChallenge && challenge.length > 0,
  }
}

/** Cloudflare's documented test site keys (they pass everyone) and secrets. */
const TEST_TURNSTILE_KEY = /^[123]x0+[A-F]{2}$/

/** What keeps Turnstile from guarding the forms in production (docs/bots.md). */
function challengeProblems(vars, secrets) {
  if (vars.TURNSTILE_ENABLED === 'false')
    return [
      {
        what: 'TURNSTILE_ENABLED is "false": no form checks that a person sent it',
        fix: 'set TURNSTILE_ENABLED = "true" in wrangler.toml',
      },
    ]
  const problems = []
  const siteKey = vars.TURNSTILE_SITE_KEY ?? ''
  if (!siteKey || TEST_TURNSTILE_KEY.test(siteKey))
    problems.push({
      what: siteKey
        ? `TURNSTILE_SITE_KEY is ${siteKey}, Cloudflare's test key, which lets every bot through`
        : 'TURNSTILE_SITE_KEY is empty',
      fix: "add a widget for the site's hostname in the Cloudflare dashboard (Turnstile › Add widget, managed mode) and put its site key in wrangler.toml",
    })
  if (secrets && !secrets.has('TURNSTILE_SECRET_KEY'))
    problems.push({
      what: 'the secret TURNSTILE_SECRET_KEY is not set',
      fix: "npx wrangler secret put TURNSTILE_SECRET_KEY, with the widget's secret key",
    })
  for (const name of ['TURNSTILE_SCRIPT_URL', 'TURNSTILE_VERIFY_URL'])
    if (
      vars[name] &&
      (!/^https:\/\//.test(vars[name]) || unreachable(new URL(vars[name]).hostname))
    )
      problems.push({
        what: `${name} is ${vars[name]}, which Cloudflare cannot reach (a stand-in's?)`,
        fix: `empty ${name} for Cloudflare's own, or set it to an https address`,
      })
  return problems
}

/** Every migration file over what the D1 API takes in one query. */
export function oversizeMigrations(dir) {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .map((name) => ({ name, size: statSync(join(dir, name)).size }))
    .filter((f) => f.size > MIGRATION_FILE_LIMIT)
    .map((f) => ({
      what: `migrations/${f.name} is ${Math.round(f.size / 1024)} KB`,
      fix: `the D1 API takes a migration file as one query of at most 100 KB: split it`,
    }))
}

/**
 * A Cloudflare Build Output (`.cloudflare/output/v<N>`, what a build for the `cf` CLI leaves):
 * wrangler 4.164's `deploy` and `versions upload` refuse a project that has one (its
 * assertNoCloudflareBuildOutput), but not with --dry-run, so the pre-flight looks for it.
 */
export function cloudflareBuildOutput(root = '.') {
  let entries = []
  try {
    entries = readdirSync(join(root, '.cloudflare/output'), { withFileTypes: true })
  } catch {
    return []
  }
  if (
    !entries.some((e) => (e.isDirectory() || e.isSymbolicLink()) && /^v(0|[1-9]\d*)$/.test(e.name))
  )
    return []
  return [
    {
      what: 'a Cloudflare Build Output is at .cloudflare/output (a build for the `cf` CLI): wrangler deploy and versions upload refuse to deploy a project that has one',
      fix: 'delete .cloudflare/output (left from an earlier build?), then run again',
    },
  ]
}

/**
 * Who is logged in, and on which account: `{ state: 'ok', accountId, account }`, or why not
 * (`logged-out`, `offline`, `several`, `unknown-account`) with what to do.
 */
export function whoAmI() {
  const run = wranglerRun(['whoami', '--json'])
  let user = null
  try {
    user = JSON.parse(run.stdout)
  } catch {
    // not JSON: wrangler could not ask (no network), or failed otherwise
  }
  if (!user || (!run.ok && user.loggedIn !== false))
    return { state: 'offline', message: wranglerError(run) }
  if (!user.loggedIn) return { state: 'logged-out' }
  const accounts = user.accounts ?? []
  const wanted = process.env.CLOUDFLARE_ACCOUNT_ID
  if (wanted) {
    const account = accounts.find((a) => a.id === wanted)
    return account
      ? { state: 'ok', accountId: account.id, account: account.name, email: user.email }
      : { state: 'unknown-account', accounts, wanted }
  }
  if (accounts.length === 1)
    return { state: 'ok', accountId: accounts[0].id, account: accounts[0].name, email: user.email }
  return { state: 'several', accounts }
}

/**
 * The Cloudflare API with wrangler's own token (`wrangler auth token`), for what wrangler has no
 * command for; undefined when wrangler gives no token (an API key and e-mail).
 */
export function accountApi() {
  let token
  try {
    token = JSON.parse(wranglerRun(['auth', 'token', '--json']).stdout).token ?? undefined
  } catch {
    // no answer, or not JSON
  }
  if (!token) return undefined
  return (path, init) =>
    cloudflareApi(token, path, init).catch((err) => ({
      ok: false,
      status: 0,
      body: null,
      text: String(err),
    }))
}

/**
 * The account's workers.dev subdomain: `{ subdomain }` ("<name>.workers.dev"), `{ none }` (API
 * error 10007: none registered), or `{ problem }` when it could not be read.
 */
export async function workersSubdomain(api, accountId) {
  const sub = await api(`/accounts/${accountId}/workers/subdomain`)
  if (sub.ok && sub.body?.result?.subdomain)
    return { subdomain: `${sub.body.result.subdomain}.workers.dev` }
  if (sub.body?.errors?.some((e) => e.code === 10007)) return { none: true }
  return { problem: `could not be read (HTTP ${sub.status}): ${sub.text.slice(0, 200)}` }
}

/**
 * The account's side: R2, Analytics Engine, a workers.dev subdomain (or a route), the plan.
 * Reads only. `{ refusals, warnings, subdomain }`.
 */
export async function checkAccount(
  accountId,
  { routes = [], allowFreePlan = false, analyticsEnabled = false } = {},
) {
  const refusals = []
  const warnings = []
  // R2: listing the buckets is refused with 10042 on an account that has not enabled it
  const r2 = wranglerRun(['r2', 'bucket', 'list'])
  if (!r2.ok)
    refusals.push(
      errorCodes(r2.stderr + r2.stdout).includes(10042)
        ? {
            what: 'R2 is not enabled on this account (API error 10042)',
            fix: 'enable R2 (its free tier asks for a payment method), then run again',
            link: dash(accountId, 'r2/overview'),
          }
        : { what: `R2: the buckets could not be listed: ${wranglerError(r2)}`, fix: 'run again' },
    )

  const api = accountApi()
  if (!api) {
    warnings.push(
      'the workers.dev subdomain, Analytics Engine and the plan were not checked: wrangler gave no API token (CLOUDFLARE_API_KEY?)',
    )
    return { refusals, warnings, subdomain: undefined }
  }

  // the workers.dev subdomain: wrangler would ask for one (and stop, with no terminal)
  const sub = await workersSubdomain(api, accountId)
  const { subdomain } = sub
  if (sub.none) {
    if (routes.length === 0)
      refusals.push({
        what: 'the account has no workers.dev subdomain, and wrangler.toml names no route',
        fix: 'register a workers.dev subdomain (or add a route or custom domain to wrangler.toml), then run again',
        link: dash(accountId, 'workers/onboarding'),
      })
  } else if (sub.problem)
    refusals.push({ what: `the workers.dev subdomain ${sub.problem}`, fix: 'run again' })

  // Analytics Engine: its SQL API answers an account that has not enabled it with an error
  // (an upload with the binding is then refused with 10089)
  const ae = await api(`/accounts/${accountId}/analytics_engine/sql`, {
    method: 'POST',
    body: 'SHOW TABLES',
  })
  if (!ae.ok) {
    const what = `Analytics Engine is not enabled on this account, or this login cannot read it (HTTP ${ae.status}); an upload with its binding is refused with API error 10089`
    if (analyticsEnabled)
      warnings.push(`${what} (--analytics-engine-enabled: you say it is enabled)`)
    else
      refusals.push({
        what,
        fix: 'enable Workers Analytics Engine, then run again (or, if it is enabled and only the check cannot see it, --analytics-engine-enabled)',
        link: dash(accountId, 'workers/analytics-engine'),
      })
  }

  // the plan: the desk and the newsletter's steps need Workers Paid (30 s CPU, 1,000
  // subrequests); reading it needs the Billing Read permission, which wrangler's login lacks
  const plan = await api(`/accounts/${accountId}/subscriptions`)
  if (plan.ok && Array.isArray(plan.body?.result)) {
    // a Workers Paid subscription's rate plan names Workers (its exact id is not documented):
    // only an account with no such subscription at all is called free
    const paid = plan.body.result.some((sub) => /workers?/i.test(JSON.stringify(sub)))
    if (!paid)
      (allowFreePlan ? warnings : refusals).push(
        allowFreePlan
          ? 'the account is on the Workers Free plan (allowed by --allow-free-plan): 10 ms CPU and 50 subrequests a request will fail the desk and the newsletter sends'
          : {
              what: 'the account is on the Workers Free plan: 10 ms CPU and 50 subrequests a request, and the desk and the newsletter sends need more',
              fix: 'subscribe to Workers Paid, or deploy anyway with --allow-free-plan',
              link: dash(accountId, 'workers/plans'),
            },
      )
  } else
    warnings.push(
      `the plan could not be read (HTTP ${plan.status}: the login has no Billing Read permission): the site needs Workers Paid (docs/deploy.md)`,
    )
  return { refusals, warnings, subdomain }
}
