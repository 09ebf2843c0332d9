// `npm run deploy`: from a fresh clone, after `wrangler login`, to a live site on your Cloudflare
// account. Creates what is missing and leaves what exists; run again, it changes only the code.
//   1. provision  the D1 database, the mail queue and its dead-letter queue, the R2 bucket of
//                 the desk's pictures
//   2. secrets    AUTH_SIGNING_KEY and LINK_SECRET, generated only when the Worker has none
//   3. migrations the remote D1 (what is not applied yet)
//   4. deploy     the build, with ENVIRONMENT=production and the database's id
//   5. smoke      npm run smoke against the live URL
// Before uploading, the settings production would refuse are named and the deploy stops.
//   --dry-run     prints every step and checks the bundle (wrangler deploy --dry-run); calls no
//                 Cloudflare API
//   --skip-build  uses the build already in dist/
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { exportJWK, generateKeyPair } from 'jose'
import {
  DATABASE,
  remoteD1Config,
  remoteDatabaseId,
  wrangler,
  wranglerConfig as config,
} from './lib/cloudflare.mjs'

const args = process.argv.slice(2)
const dryRun = args.includes('--dry-run')
const BUILD_CONFIG = 'dist/growth_agency/wrangler.json'
const vars = { ...config.vars, ENVIRONMENT: 'production' }
const BUCKETS = (config.r2_buckets ?? []).map((b) => b.bucket_name)
const QUEUES = [
  ...new Set([
    ...(config.queues?.producers ?? []).map((q) => q.queue),
    ...(config.queues?.consumers ?? []).flatMap((q) => [q.queue, q.dead_letter_queue]),
  ]),
].filter(Boolean)

const step = (n, title) => console.log(`\n${n}. ${title}`)
const say = (line) => console.log(`   ${line}`)
const plan = (line) => say(`${dryRun ? 'would run' : '$'} wrangler ${line}`)

/**
 * What the deployed Worker would refuse (`problems`: the deploy stops before uploading) and what
 * would leave a promise unkept (`warnings`: e-mail that cannot leave, say).
 */
function reviewSettings(secretNames) {
  const problems = []
  const warnings = []
  const has = (name) => secretNames.has(name)
  if (vars.AUTH_URL && !has('AUTH_API_KEY'))
    problems.push('AUTH_URL is set but the secret AUTH_API_KEY is not (wrangler secret put)')
  if (vars.MAIL_PROVIDER === 'resend' && !has('RESEND_API_KEY'))
    problems.push('MAIL_PROVIDER is resend but the secret RESEND_API_KEY is not set')
  if (vars.MAIL_PROVIDER === 'smtp') {
    if (String(vars.SMTP_PORT) === '25') problems.push('SMTP_PORT 25: Workers cannot connect to it')
    if (/^(127\.|localhost$|::1$)/.test(vars.SMTP_HOST ?? ''))
      warnings.push(
        `MAIL_PROVIDER is smtp with SMTP_HOST ${vars.SMTP_HOST}, the local catcher: no e-mail ` +
          'will leave Cloudflare. Set MAIL_PROVIDER = "resend" (and RESEND_API_KEY) or ' +
          '"cloudflare", or a relay on 465/587 (README: Mail)',
      )
  }
  if (/\.example\b/.test(vars.AGENCY_EMAIL ?? ''))
    warnings.push(
      `AGENCY_EMAIL is ${vars.AGENCY_EMAIL}, the placeholder: visitors would write to it`,
    )
  return { problems, warnings }
}

/** The secrets only a deploy can make: random, never a default, never printed. */
const GENERATED = {
  async AUTH_SIGNING_KEY() {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true })
    return JSON.stringify({
      ...(await exportJWK(privateKey)),
      kid: crypto.randomUUID(),
      alg: 'ES256',
    })
  },
  async LINK_SECRET() {
    return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  },
}

function secretNamesOnCloudflare() {
  try {
    return new Set(
      JSON.parse(wrangler(['secret', 'list', '--format', 'json'], { quiet: true })).map(
        (s) => s.name,
      ),
    )
  } catch {
    return new Set() // no Worker yet: `secret bulk` creates it
  }
}

async function main() {
  if (!args.includes('--skip-build')) {
    step(0, 'build')
    execFileSync('npm', ['run', 'build', '--silent', '--', '--logLevel', 'warn'], {
      stdio: 'inherit',
    })
  }
  if (!dryRun) {
    try {
      wrangler(['whoami'], { quiet: true })
    } catch {
      console.error(
        'wrangler is not logged in: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN), then npm run deploy',
      )
      process.exit(1)
    }
  }

  step(1, 'provision')
  let databaseId
  if (dryRun) {
    plan(`d1 list --json, then d1 create ${DATABASE.database_name} if it is not there`)
    plan(`queues list, then queues create for each missing one of ${QUEUES.join(', ')}`)
    plan(`r2 bucket list, then r2 bucket create for each missing one of ${BUCKETS.join(', ')}`)
  } else {
    databaseId = remoteDatabaseId()
    if (databaseId) say(`D1 ${DATABASE.database_name}: exists (${databaseId})`)
    else {
      wrangler(['d1', 'create', DATABASE.database_name], { quiet: true })
      databaseId = remoteDatabaseId()
      if (!databaseId)
        throw new Error(`d1 create ${DATABASE.database_name} did not leave a database`)
      say(`D1 ${DATABASE.database_name}: created (${databaseId})`)
    }
    const listed = wrangler(['queues', 'list'], { quiet: true })
    for (const queue of QUEUES) {
      if (new RegExp(`(^|[\\s│|])${queue}([\\s│|]|$)`, 'm').test(listed))
        say(`queue ${queue}: exists`)
      else {
        wrangler(['queues', 'create', queue], { quiet: true })
        say(`queue ${queue}: created`)
      }
    }
    const buckets = wrangler(['r2', 'bucket', 'list'], { quiet: true })
    for (const bucket of BUCKETS) {
      if (new RegExp(`^name:\\s+${bucket}$`, 'm').test(buckets)) say(`R2 ${bucket}: exists`)
      else {
        wrangler(['r2', 'bucket', 'create', bucket], { quiet: true })
        say(`R2 ${bucket}: created`)
      }
    }
  }

  step(2, 'secrets')
  const names = dryRun ? new Set() : secretNamesOnCloudflare()
  const needed = Object.keys(GENERATED).filter(
    (name) => !names.has(name) && !(name === 'AUTH_SIGNING_KEY' && vars.AUTH_URL),
  )
  const { problems, warnings } = reviewSettings(new Set([...names, ...needed]))
  for (const w of warnings) say(`warning: ${w}`)
  if (problems.length) {
    console.error('\nProduction would refuse these settings (wrangler.toml [vars], secrets):')
    for (const p of problems) console.error(`  - ${p}`)
    if (!dryRun) process.exit(1)
  }
  if (dryRun)
    plan(
      `secret list, then secret bulk with whichever of ${Object.keys(GENERATED).join(', ')} is absent`,
    )
  else if (needed.length) {
    const secrets = Object.fromEntries(
      await Promise.all(needed.map(async (n) => [n, await GENERATED[n]()])),
    )
    wrangler(['secret', 'bulk'], { input: JSON.stringify(secrets), quiet: true })
    say(`generated and stored: ${needed.join(', ')}`)
  } else say('AUTH_SIGNING_KEY and LINK_SECRET: set already, left as they are')

  step(3, 'migrations')
  if (dryRun) plan(`d1 migrations apply ${DATABASE.binding} --remote`)
  else
    process.stdout.write(
      wrangler(
        [
          'd1',
          'migrations',
          'apply',
          DATABASE.binding,
          '--remote',
          '--config',
          remoteD1Config(databaseId),
        ],
        {
          input: 'y\n',
        },
      ),
    )

  step(4, 'deploy')
  if (dryRun) {
    say('checking the bundle: wrangler deploy --dry-run')
    wrangler(['deploy', '--dry-run', '--var', 'ENVIRONMENT:production'], { quiet: true })
    say('the bundle and its bindings are valid')
    step(5, 'smoke')
    say('would run: npm run smoke -- <the live URL>')
    console.log('\nDry run: nothing was created, stored or uploaded.')
    return
  }
  // the build's config is what wrangler uploads (.wrangler/deploy/config.json points at it)
  const built = JSON.parse(readFileSync(BUILD_CONFIG, 'utf8'))
  for (const db of built.d1_databases)
    if (db.binding === DATABASE.binding) db.database_id = databaseId
  writeFileSync(BUILD_CONFIG, JSON.stringify(built))
  const output = wrangler(['deploy', '--var', 'ENVIRONMENT:production'])
  process.stdout.write(output)
  // the addresses wrangler lists under "Deployed … triggers" (workers.dev, routes)
  const url =
    vars.SITE_URL || output.slice(output.lastIndexOf('Deployed')).match(/https?:\/\/\S+/)?.[0]
  if (!url)
    throw new Error(
      "wrangler deploy named no URL: set SITE_URL (the site's address) and run npm run smoke -- URL",
    )

  step(5, 'smoke')
  try {
    execFileSync('node', ['scripts/smoke.mjs', url], { stdio: 'inherit' })
  } catch {
    console.error(`\nDeployed to ${url}, but the smoke test failed (above).`)
    process.exit(1)
  }
  console.log(`\nLive: ${url}`)
}

await main()
