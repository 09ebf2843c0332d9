// `npm run deploy`: from a fresh clone, after `npx wrangler login`, to a live site on your
// Cloudflare account, and every deploy after it without breaking the one that serves.
//   0. build
//   1. pre-flight  creates nothing: the settings, the bundle, the migrations; the login, the
//                  account (R2, Analytics Engine, workers.dev subdomain, plan), the Worker and
//                  its secrets, the resources to create. Any refusal stops here, named with its
//                  fix (and dashboard link); only the flag it names overrides it.
//   2. provision   the D1 database, the queues, the R2 bucket, each only when it is not there
//   3. migrations  the remote D1 (what is not applied yet)
//   4. upload      a new version, the generated secrets with it (--secrets-file); the first
//                  deploy of the Worker is a `wrangler deploy` (a version upload cannot create
//                  a Worker), every later one a `versions upload` that gets no traffic yet
//   5. smoke       the new version's preview URL, then `versions deploy` sends it all traffic,
//                  and the live URL is smoked again (else the previous version comes back)
//   --dry-run        the pre-flight alone (exits non-zero on a refusal, like the real run)
//   --rollback       the last version that passed its smoke gets all traffic again, and is
//                    smoked at the live address (a failure is said, not rolled back further)
//   --adopt          deploy over a same-named Worker that `npm run deploy` did not deploy
//   --allow-no-mail  deploy although no e-mail can leave (a placeholder sender, the catcher)
//   --allow-free-plan deploy on the Workers Free plan
//   --allow-no-challenge  deploy without Turnstile keys: the forms' challenge is then off
//   --analytics-engine-enabled  when the Analytics Engine check cannot see that it is enabled
//   --skip-build     uses the build already in dist/
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { exportJWK, generateKeyPair } from 'jose'
import {
  DATABASE,
  errorCodes,
  remoteD1Config,
  wranglerConfig as config,
  wranglerError,
  wranglerRun,
} from './lib/cloudflare.mjs'
import {
  accountApi,
  checkAccount,
  cloudflareBuildOutput,
  dash,
  oversizeMigrations,
  reviewSettings,
  whoAmI,
  workersSubdomain,
} from './lib/preflight.mjs'

const args = process.argv.slice(2)
const flag = (name) => args.includes(name)
const dryRun = flag('--dry-run')
const NAME = config.name
const BUILD_CONFIG = 'dist/growth_agency/wrangler.json'
/** Every deployment message of this script starts so: how a Worker it deployed is known. */
const MARK = 'npm run deploy'
const vars = { ...config.vars, ENVIRONMENT: 'production' }
const BUCKETS = (config.r2_buckets ?? []).map((b) => b.bucket_name)
const QUEUES = [
  ...new Set([
    ...(config.queues?.producers ?? []).map((q) => q.queue),
    ...(config.queues?.consumers ?? []).flatMap((q) => [q.queue, q.dead_letter_queue]),
  ]),
].filter(Boolean)
const ROUTES = [...(config.routes ?? []), ...(config.route ? [config.route] : [])]

const step = (title) => console.log(`\n${title}`)
const say = (line) => console.log(`   ${line}`)

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
/** The secrets production cannot run without: the upload is refused without them. */
const REQUIRED = Object.keys(GENERATED).filter((n) => !(n === 'AUTH_SIGNING_KEY' && vars.AUTH_URL))

/**
 * The Worker on the account: whether it exists and its secrets' names. Only wrangler's "Worker
 * … not found" means "no Worker, no secrets"; any other failure is `error` (the deploy stops:
 * reading it as "none" would generate new keys over production's).
 */
function readWorker() {
  const run = wranglerRun(['secret', 'list', '--format', 'json'])
  if (run.ok) {
    try {
      return { exists: true, secrets: new Set(JSON.parse(run.stdout).map((s) => s.name)) }
    } catch {
      return {
        error: `wrangler secret list answered what is not JSON: ${run.stdout.slice(0, 200)}`,
      }
    }
  }
  if ((run.stderr + run.stdout).includes(`Worker "${NAME}" not found`))
    return { exists: false, secrets: new Set() }
  return { error: wranglerError(run) }
}

/** The Worker's deployments, oldest first (wrangler's `deployments list --json`). */
function deploymentsOf() {
  const run = wranglerRun(['deployments', 'list', '--json'])
  if (!run.ok) return { error: wranglerError(run) }
  try {
    return { deployments: JSON.parse(run.stdout) }
  } catch {
    return { error: `wrangler deployments list answered what is not JSON` }
  }
}

const messageOf = (d) => d.annotations?.['workers/message'] ?? ''
/** The version a deployment sends (most of) its traffic to. */
const versionOf = (d) =>
  [...(d?.versions ?? [])].sort((a, b) => b.percentage - a.percentage)[0]?.version_id

/** The D1 database's id, by exact name (undefined when absent), or the `problem` reading it. */
function findDatabase() {
  const d1 = wranglerRun(['d1', 'list', '--json']) // every page
  if (!d1.ok)
    return {
      problem: {
        what: `D1: the databases could not be listed: ${wranglerError(d1)}`,
        fix: 'run again',
      },
    }
  try {
    return { id: JSON.parse(d1.stdout).find((db) => db.name === DATABASE.database_name)?.uuid }
  } catch {
    return { problem: { what: 'D1: the databases could not be read (not JSON)', fix: 'run again' } }
  }
}

/** Which resources exist, by exact name: `{ database, queues: {name: bool}, buckets }`. */
function findResources() {
  const problems = []
  const { id: database, problem } = findDatabase()
  if (problem) problems.push(problem)
  const found = { database, queues: {}, buckets: {} }
  for (const queue of QUEUES) {
    // `queues info` asks the API for that name, whatever the number of queues
    const info = wranglerRun(['queues', 'info', queue])
    if (info.ok && new RegExp(`^Queue Name: ${queue}$`, 'm').test(info.stdout))
      found.queues[queue] = true
    else if ((info.stderr + info.stdout).includes(`Queue "${queue}" does not exist`))
      found.queues[queue] = false
    else
      problems.push({
        what: `queue ${queue} could not be read: ${wranglerError(info)}`,
        fix: 'run again',
      })
  }
  for (const bucket of BUCKETS) {
    const info = wranglerRun(['r2', 'bucket', 'info', bucket, '--json'])
    if (info.ok) found.buckets[bucket] = true
    else if (errorCodes(info.stderr + info.stdout).includes(10006)) found.buckets[bucket] = false
    else
      problems.push({
        what: `R2 bucket ${bucket} could not be read: ${wranglerError(info)}`,
        fix: 'run again',
      })
  }
  return { found, problems }
}

function printRefusals(refusals) {
  console.error(`\nThe deploy stops here, before it creates anything (${refusals.length}):`)
  for (const r of refusals) {
    console.error(`  ✗ ${r.what}`)
    if (r.fix) console.error(`      fix: ${r.fix}`)
    if (r.link) console.error(`      ${r.link}`)
  }
}

/** Runs the smoke test of `url` (version `version`); whether it passed. */
function smoke(url, version, token) {
  const [cmd, ...pre] = process.env.SMOKE ? [process.env.SMOKE] : ['node', 'scripts/smoke.mjs']
  const allow = flag('--allow-no-mail') ? ['--allow-no-mail'] : []
  const run = spawnSync(cmd, [...pre, url, '--version', version, ...allow], {
    stdio: 'inherit',
    env: { ...process.env, DEPLOY_CHECK_TOKEN: token },
    timeout: 10 * 60_000,
  })
  return run.status === 0
}

/** The pre-flight; what the rest of the deploy needs to know, or the refusals. */
async function preflight() {
  step('1. pre-flight (creates nothing)')
  const oversize = oversizeMigrations(DATABASE.migrations_dir)
  const refusals = [...oversize, ...cloudflareBuildOutput()]
  const warnings = []
  const skipped = []
  say(
    `migrations: ${readdirSync(DATABASE.migrations_dir).filter((f) => f.endsWith('.sql')).length} files, none over 100 KB${oversize.length ? ' (but see below)' : ''}`,
  )

  const bundle = wranglerRun(['deploy', '--dry-run', '--var', 'ENVIRONMENT:production'])
  if (bundle.ok) say('bundle: its bindings are valid (wrangler deploy --dry-run)')
  else refusals.push({ what: `bundle: ${wranglerError(bundle)}`, fix: 'npm run check' })

  const who = whoAmI()
  const state = { who, worker: undefined, resources: undefined, subdomain: undefined }
  if (who.state === 'logged-out') {
    if (dryRun) skipped.push('nobody is logged in (npx wrangler login, or CLOUDFLARE_API_TOKEN)')
    else
      refusals.push({
        what: 'nobody is logged in to Cloudflare',
        fix: 'npx wrangler login (or set CLOUDFLARE_API_TOKEN), then npm run deploy',
      })
  } else if (who.state === 'offline') {
    if (dryRun) skipped.push(`Cloudflare could not be reached (${who.message.split('\n')[0]})`)
    else
      refusals.push({
        what: `Cloudflare could not be reached: ${who.message}`,
        fix: 'check the connection, then run again',
      })
  } else if (who.state === 'several' || who.state === 'unknown-account') {
    refusals.push({
      what:
        who.state === 'several'
          ? `this login has ${who.accounts.length} accounts; which one is not said`
          : `CLOUDFLARE_ACCOUNT_ID ${who.wanted} is not one of this login's accounts`,
      fix: `CLOUDFLARE_ACCOUNT_ID=<id> npm run deploy, with one of:\n${who.accounts.map((a) => `        ${a.id}  ${a.name}`).join('\n')}`,
    })
  } else {
    // every wrangler call from here on acts on this account
    process.env.CLOUDFLARE_ACCOUNT_ID = who.accountId
    say(
      `account: ${who.account} (${who.accountId})${who.email ? `, logged in as ${who.email}` : ''}`,
    )
    const account = await checkAccount(who.accountId, {
      routes: ROUTES,
      allowFreePlan: flag('--allow-free-plan'),
      analyticsEnabled: flag('--analytics-engine-enabled'),
    })
    refusals.push(...account.refusals)
    warnings.push(...account.warnings)
    state.subdomain = account.subdomain
    if (account.subdomain) say(`workers.dev subdomain: ${account.subdomain}`)

    const worker = readWorker()
    if (worker.error)
      refusals.push({
        what: `the Worker's secrets could not be read: ${worker.error}`,
        fix: 'nothing was created or replaced; run again (only "Worker not found" counts as no secrets, so the production keys are never generated anew by mistake)',
      })
    else {
      state.worker = worker
      if (worker.exists) {
        const { deployments = [], error } = deploymentsOf()
        if (error)
          refusals.push({
            what: `the Worker's deployments could not be read: ${error}`,
            fix: 'run again',
          })
        state.worker.deployments = deployments
        state.worker.current = versionOf(deployments.at(-1))
        const ours = deployments.some((d) => messageOf(d).startsWith(MARK))
        if (!error && !ours && !flag('--adopt'))
          refusals.push({
            what: `a Worker named "${NAME}" is already on this account, and npm run deploy did not deploy it`,
            fix: `if it is this site, deployed another way, run again with --adopt; otherwise change name in wrangler.toml`,
            link: dash(who.accountId, `workers/services/view/${NAME}/production`),
          })
        say(
          `Worker ${NAME}: exists${state.worker.current ? `, version ${state.worker.current} serves` : ''}${ours ? '' : flag('--adopt') ? ' (adopted: --adopt)' : ''}`,
        )
      } else say(`Worker ${NAME}: not on the account yet (this is its first deploy)`)
    }
    if (!account.refusals.some((r) => r.what.startsWith('R2 is not enabled'))) {
      const { found, problems } = findResources()
      refusals.push(...problems)
      state.resources = found
    }
  }

  const settings = reviewSettings(vars, {
    allowNoMail: flag('--allow-no-mail'),
    allowNoChallenge: flag('--allow-no-challenge'),
    secrets: state.worker?.secrets,
  })
  state.challengeOff = settings.challengeOff
  refusals.push(...settings.refusals)
  warnings.push(...settings.warnings)

  // the plan, as far as it is known
  const r = state.resources
  if (r) {
    say(`D1 ${DATABASE.database_name}: ${r.database ? `exists (${r.database})` : 'to create'}`)
    for (const q of QUEUES)
      say(`queue ${q}: ${r.queues[q] ? 'exists' : r.queues[q] === false ? 'to create' : '?'}`)
    for (const b of BUCKETS)
      say(`R2 ${b}: ${r.buckets[b] ? 'exists' : r.buckets[b] === false ? 'to create' : '?'}`)
  }
  if (state.worker && !state.worker.error) {
    const absent = REQUIRED.filter((n) => !state.worker.secrets.has(n))
    say(
      absent.length
        ? `secrets to generate: ${absent.join(', ')}`
        : `secrets ${REQUIRED.join(', ')}: set, left as they are`,
    )
  }
  const siteUrl = siteUrlOf(state.subdomain)
  if (!vars.SITE_URL && siteUrl)
    say(`SITE_URL: empty in wrangler.toml, so ${siteUrl} (the address it deploys to)`)
  // resources of these names before the Worker's first deploy: used, but said
  if (r && state.worker?.exists === false) {
    const there = [
      ...(r.database ? [`D1 ${DATABASE.database_name}`] : []),
      ...QUEUES.filter((q) => r.queues[q]).map((q) => `queue ${q}`),
      ...BUCKETS.filter((b) => r.buckets[b]).map((b) => `R2 ${b}`),
    ]
    if (there.length)
      warnings.push(
        `${there.join(', ')} already on the account before this site's first deploy: they will be used (left by a deploy that stopped? if they are another project's, change the names in wrangler.toml)`,
      )
  }
  for (const w of warnings) say(`warning: ${w}`)
  if (skipped.length) say(`account: skipped, ${skipped.join('; ')}`)
  return { refusals, skipped, state }
}

/** The address the site answers at: SITE_URL, the first route, or its workers.dev address. */
function siteUrlOf(subdomain) {
  if (vars.SITE_URL) return vars.SITE_URL.replace(/\/$/, '')
  const route = ROUTES[0]
  if (route) {
    const pattern = typeof route === 'string' ? route : route.pattern
    return `https://${pattern.replace(/^https?:\/\//, '').replace(/[/*].*$/, '')}`
  }
  return subdomain ? `https://${NAME}.${subdomain}` : undefined
}

/** A temporary file with the secrets, readable by its owner alone; removed by `done()`. */
function secretsFile(secrets) {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-secrets-')) // 0700
  const path = join(dir, 'secrets.json')
  writeFileSync(path, JSON.stringify(secrets), { mode: 0o600 })
  chmodSync(path, 0o600)
  const done = () => rmSync(dir, { recursive: true, force: true })
  process.once('exit', done) // fail() exits without unwinding
  return { path, done }
}

/** Sends all traffic to `version`; whether wrangler did. */
function sendTraffic(version, message) {
  const run = wranglerRun(['versions', 'deploy', `${version}@100`, '--yes', '--message', message], {
    echo: true,
  })
  return run.ok
}

async function deploy() {
  if (!flag('--skip-build')) {
    step('0. build')
    execFileSync('npm', ['run', 'build', '--silent', '--', '--logLevel', 'warn'], {
      stdio: 'inherit',
    })
  }
  const { refusals, skipped, state } = await preflight()
  if (refusals.length) {
    printRefusals(refusals)
    process.exit(1)
  }
  if (dryRun) {
    console.log(
      `\nDry run: nothing was created, stored or uploaded.${skipped.length ? ' The account was skipped: only the settings, the bundle and the migrations were checked.' : ' The real run would go on from here.'}`,
    )
    return
  }
  const { worker, resources } = state

  step('2. provision')
  let databaseId = resources.database
  if (databaseId) say(`D1 ${DATABASE.database_name}: exists (${databaseId})`)
  else {
    const run = wranglerRun(['d1', 'create', DATABASE.database_name])
    if (!run.ok) fail(`d1 create ${DATABASE.database_name}: ${wranglerError(run)}`)
    // its id: the database alone asked again, not the queues and buckets
    databaseId = findDatabase().id
    if (!databaseId) fail(`d1 create ${DATABASE.database_name} did not leave a database`)
    say(`D1 ${DATABASE.database_name}: created (${databaseId})`)
  }
  for (const queue of QUEUES) {
    if (resources.queues[queue]) {
      say(`queue ${queue}: exists`)
      continue
    }
    const run = wranglerRun(['queues', 'create', queue])
    if (!run.ok) fail(`queues create ${queue}: ${wranglerError(run)}`)
    say(`queue ${queue}: created`)
  }
  for (const bucket of BUCKETS) {
    if (resources.buckets[bucket]) {
      say(`R2 ${bucket}: exists`)
      continue
    }
    const run = wranglerRun(['r2', 'bucket', 'create', bucket])
    if (!run.ok) fail(`r2 bucket create ${bucket}: ${wranglerError(run)}`)
    say(`R2 ${bucket}: created`)
  }

  step('3. migrations')
  const migrated = wranglerRun(
    [
      'd1',
      'migrations',
      'apply',
      DATABASE.binding,
      '--remote',
      '--config',
      remoteD1Config(databaseId),
    ],
    { echo: true },
  )
  if (!migrated.ok) fail(`the migrations stopped: ${wranglerError(migrated)}`)

  step('4. upload')
  // the build's config is what wrangler uploads (.wrangler/deploy/config.json points at it):
  // the database's id, and the secrets the platform must refuse a version without
  const built = JSON.parse(readFileSync(BUILD_CONFIG, 'utf8'))
  for (const db of built.d1_databases)
    if (db.binding === DATABASE.binding) db.database_id = databaseId
  built.secrets = { required: REQUIRED }
  writeFileSync(BUILD_CONFIG, JSON.stringify(built))

  const siteUrl = siteUrlOf(state.subdomain)
  // the smoke's key to the version's status: a plain var of this one version, new each upload
  const checkToken = Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url')
  const varArgs = [
    '--var',
    'ENVIRONMENT:production',
    '--var',
    `DEPLOY_CHECK_TOKEN:${checkToken}`,
    ...(vars.SITE_URL ? [] : ['--var', `SITE_URL:${siteUrl}`]),
    // without keys the challenge would refuse every form: off, as --allow-no-challenge said
    ...(state.challengeOff ? ['--var', 'TURNSTILE_ENABLED:false'] : []),
  ]
  const absent = REQUIRED.filter((n) => !worker.secrets.has(n))
  const secrets = absent.length
    ? secretsFile(
        Object.fromEntries(await Promise.all(absent.map(async (n) => [n, await GENERATED[n]()]))),
      )
    : undefined
  const secretArgs = secrets ? ['--secrets-file', secrets.path] : []
  if (secrets) say(`generated, uploaded with the version: ${absent.join(', ')}`)

  try {
    if (!worker.exists) {
      // a version upload cannot create a Worker: its first version is a `wrangler deploy`
      const run = wranglerRun(
        ['deploy', ...varArgs, ...secretArgs, '--message', `${MARK}: first version`],
        { echo: true },
      )
      const version = run.records.find((r) => r.type === 'deploy')?.version_id
      if (!run.ok || !version) fail(`wrangler deploy failed: ${wranglerError(run)}`)
      step('5. smoke')
      if (!smoke(siteUrl, version, checkToken))
        fail(
          `The first version (${version}) is live at ${siteUrl} but failed its smoke test (above). There is no earlier version to go back to: fix what it names, then npm run deploy again.`,
        )
      console.log(`\nLive: ${siteUrl}`)
      return
    }

    const previous = worker.current
    const upload = wranglerRun(
      ['versions', 'upload', ...varArgs, ...secretArgs, '--message', `${MARK}: upload`],
      { echo: true },
    )
    const record = upload.records.find((r) => r.type === 'version-upload')
    if (!upload.ok || !record?.version_id)
      fail(
        `the upload failed: ${wranglerError(upload)}\nNothing changed for visitors: version ${previous} still serves.`,
      )
    const version = record.version_id
    if (!record.preview_url)
      fail(
        `version ${version} was uploaded but has no preview URL to smoke (preview_urls = true in wrangler.toml, and a workers.dev subdomain). It gets no traffic: version ${previous} still serves.`,
      )

    step('5. smoke')
    say(`the new version first, at its preview URL, before it gets any traffic`)
    if (!smoke(record.preview_url, version, checkToken))
      fail(
        `version ${version} failed its smoke test (above), so it gets no traffic: version ${previous} still serves. Fix what it names, then npm run deploy again.`,
      )
    if (!sendTraffic(version, `${MARK}: live ${version}`))
      fail(`wrangler versions deploy failed: version ${previous} still serves.`)
    // crons, queue consumers, the workers.dev route: a versions deploy leaves them as they were
    const triggers = wranglerRun(['triggers', 'deploy'], { echo: true })
    if (!triggers.ok)
      console.error(`warning: wrangler triggers deploy failed: ${wranglerError(triggers)}`)
    say(`and the live address, now that it serves all traffic`)
    if (!smoke(siteUrl, version, checkToken)) {
      const back = sendTraffic(previous, `${MARK} --rollback from ${version}`)
      fail(
        back
          ? `version ${version} passed at its preview URL but failed at ${siteUrl}: version ${previous} serves again.`
          : `version ${version} failed at ${siteUrl}, and going back to ${previous} failed too: npm run deploy -- --rollback`,
      )
    }
    console.log(
      `\nLive: ${siteUrl} (version ${version}; before it ${previous}, which npm run deploy -- --rollback brings back)`,
    )
  } finally {
    secrets?.done()
  }
}

/**
 * A version's plain-text vars, by name: `versions view <id> --json` is the API's version, whose
 * `resources.bindings` carry each `--var` as `{ type: 'plain_text', name, text }`.
 */
function varsOf(version) {
  const run = wranglerRun(['versions', 'view', version, '--json'])
  if (!run.ok) return { error: wranglerError(run) }
  try {
    const bindings = JSON.parse(run.stdout).resources?.bindings ?? []
    return {
      vars: Object.fromEntries(
        bindings.filter((b) => b.type === 'plain_text').map((b) => [b.name, b.text]),
      ),
    }
  } catch {
    return { error: 'wrangler versions view answered what is not JSON' }
  }
}

/**
 * How to smoke `version` where it is live: `{ url, token }`, or `why` it cannot be. The address
 * is its SITE_URL var (the deploy sets it), else siteUrlOf's rule.
 */
async function smokeOf(version, accountId) {
  const { vars: its, error } = varsOf(version)
  if (error) return { why: `its vars could not be read (wrangler versions view): ${error}` }
  let url = its.SITE_URL?.replace(/\/$/, '') || siteUrlOf(undefined)
  if (!url) {
    const api = accountApi()
    const sub = api ? await workersSubdomain(api, accountId) : {}
    url = siteUrlOf(sub.subdomain)
    if (!url)
      return {
        why: `its live address is not known: it has no SITE_URL var, wrangler.toml neither SITE_URL nor a route, and ${!api ? 'wrangler gave no API token to read the workers.dev subdomain' : sub.none ? 'the account has no workers.dev subdomain' : `the workers.dev subdomain ${sub.problem}`}`,
      }
  }
  if (!its.DEPLOY_CHECK_TOKEN)
    return { url, why: 'it has no DEPLOY_CHECK_TOKEN var (it was not uploaded by npm run deploy)' }
  return { url, token: its.DEPLOY_CHECK_TOKEN }
}

/**
 * `--rollback`: all traffic to the last version that passed its smoke before the current one,
 * then that version's smoke at the live address. A failure there is reported, not rolled back
 * further: which version to try next is the operator's call.
 */
async function rollback() {
  const who = whoAmI()
  if (who.state !== 'ok') {
    console.error(
      who.state === 'logged-out'
        ? 'Nobody is logged in to Cloudflare: npx wrangler login, then npm run deploy -- --rollback'
        : who.state === 'several'
          ? `Several accounts: CLOUDFLARE_ACCOUNT_ID=<id> npm run deploy -- --rollback, with one of:\n${who.accounts.map((a) => `  ${a.id}  ${a.name}`).join('\n')}`
          : `Cloudflare could not be asked: ${who.message ?? who.state}`,
    )
    process.exit(1)
  }
  process.env.CLOUDFLARE_ACCOUNT_ID = who.accountId
  const { deployments, error } = deploymentsOf()
  if (error) fail(`the deployments could not be read: ${error}`)
  const current = versionOf(deployments.at(-1))
  // versions a rollback left are not good ones to come back to
  const bad = new Set([
    current,
    ...deployments.map((d) => messageOf(d).match(/--rollback from (\S+)/)?.[1]),
  ])
  // newest first, each version once
  const good = [...deployments]
    .reverse()
    .filter(
      (d) => /^npm run deploy: (live|first version)/.test(messageOf(d)) && !bad.has(versionOf(d)),
    )
    .filter((d, i, all) => all.findIndex((e) => versionOf(e) === versionOf(d)) === i)
  if (!good.length) fail(`no earlier version that passed its smoke test: version ${current} stays.`)
  const [chosen, ...earlier] = good
  const target = versionOf(chosen)
  const check = await smokeOf(target, who.accountId)
  if (!sendTraffic(target, `${MARK} --rollback from ${current}`))
    fail('wrangler versions deploy failed: nothing changed.')
  const serving = `version ${target} (deployed ${chosen.created_on}) serves all traffic${check.url ? ` at ${check.url}` : ''}`
  // what the operator can do next: nothing more happens by itself
  const next = earlier.length
    ? `Earlier versions that passed their smoke test: ${earlier.map((d) => `${versionOf(d)} (deployed ${d.created_on})`).join(', ')}. npm run deploy -- --rollback again sends all traffic to ${versionOf(earlier[0])}; or fix the code, then npm run deploy.`
    : 'No earlier version passed its smoke test: fix the code, then npm run deploy.'
  if (check.why)
    fail(
      `Rolled back from ${current}, but NOT checked: ${serving} now, and its smoke test was not run: ${check.why}. Check the site by hand: npm run smoke -- ${check.url ?? '<its address>'}\nIf it is wrong: ${next}`,
    )
  say(`the restored version, at the live address`)
  if (!smoke(check.url, target, check.token))
    fail(
      `Rolled back from ${current}, but the version restored FAILED its smoke test (above): ${serving} now. Nothing is rolled back further by itself.\n${next}`,
    )
  console.log(`\nRolled back: ${serving} and passed its smoke test; ${current} gets none.`)
}

function fail(message) {
  console.error(`\n${message}`)
  process.exit(1)
}

await (flag('--rollback') ? rollback() : deploy())
