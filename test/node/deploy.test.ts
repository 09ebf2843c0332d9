import { execFile } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeApi } from '../fixtures/fake-cloudflare-api.mjs'

// `npm run deploy` against a stand-in for wrangler (test/fixtures/fake-wrangler.mjs) and for the
// API calls it makes itself (fake-cloudflare-api.mjs), both answering as one Cloudflare account
// kept in a JSON file, which records every call; the smoke test is a stand-in too (the real one
// is tested against a real site in test/e2e/smoke.test.ts). Each deploy runs in a project
// directory of its own: this repository's wrangler.toml and migrations, a build's config.

const run = promisify(execFile)
const ROOT = resolve('.')
const ACCOUNT = { id: '1f2e3d4c5b6a79881f2e3d4c5b6a7988', name: 'Northstar Growth' }
const OTHER = { id: '99887766554433221100aabbccddeeff', name: 'Personal' }

let api: { url: string; close: () => void }
beforeAll(async () => {
  api = await startFakeApi()
})
const dirs: string[] = []
afterAll(() => {
  api.close()
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }))
})

type Account = {
  calls: string[]
  worker?: {
    secrets: string[]
    versions: { id: string; database: string; vars: Record<string, string> }[]
    deployments: {
      versions: { version_id: string }[]
      annotations: Record<string, string>
      created_on: string
    }[]
  }
  [key: string]: unknown
}

/** A project directory and a Cloudflare account (fresh: logged in, one account, all enabled). */
function setup(account: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'deploy-'))
  dirs.push(dir)
  writeFileSync(join(dir, 'wrangler.toml'), readFileSync('wrangler.toml'))
  symlinkSync(resolve('migrations'), join(dir, 'migrations'))
  mkdirSync(join(dir, 'dist/growth_agency'), { recursive: true })
  writeFileSync(
    join(dir, 'dist/growth_agency/wrangler.json'),
    JSON.stringify({
      name: 'growth-agency',
      d1_databases: [
        { binding: 'DB', database_name: 'growth-agency', migrations_dir: 'migrations' },
      ],
    }),
  )
  mkdirSync(join(dir, '.wrangler/deploy'), { recursive: true })
  writeFileSync(
    join(dir, '.wrangler/deploy/config.json'),
    JSON.stringify({ configPath: '../../dist/growth_agency/wrangler.json' }),
  )
  const state = join(dir, 'account.json')
  writeFileSync(
    state,
    JSON.stringify({
      calls: [],
      loggedIn: true,
      accounts: [ACCOUNT],
      r2Enabled: true,
      aeEnabled: true,
      subdomain: 'northstar',
      plan: 'paid',
      databases: [],
      queues: [],
      buckets: [],
      worker: null,
      ...account,
    }),
  )
  return { dir, state }
}

/** An account where npm run deploy has deployed the site once (its version serving). */
function deployed(extra: Record<string, unknown> = {}) {
  const version = { id: crypto.randomUUID(), database: 'db-1', vars: {} }
  return {
    databases: [{ name: 'growth-agency', uuid: 'db-1' }],
    queues: [
      'growth-agency-mail',
      'growth-agency-mail-dlq',
      'growth-agency-newsletters',
      'growth-agency-calendar',
      'growth-agency-media',
    ],
    buckets: ['growth-agency-media'],
    secretsUploaded: ['AUTH_SIGNING_KEY', 'LINK_SECRET'],
    worker: {
      secrets: ['AUTH_SIGNING_KEY', 'LINK_SECRET'],
      versions: [version],
      deployments: [
        {
          created_on: '2026-11-01T00:00:00Z',
          annotations: { 'workers/message': 'npm run deploy: first version' },
          versions: [{ version_id: version.id, percentage: 100 }],
        },
      ],
    },
    ...extra,
  }
}

const read = (state: string) => JSON.parse(readFileSync(state, 'utf8')) as Account

async function deploy(
  { dir, state }: { dir: string; state: string },
  flags: string[] = [],
  env = {},
) {
  const before = read(state).calls.length
  const result = await run('node', [join(ROOT, 'scripts/deploy.mjs'), '--skip-build', ...flags], {
    cwd: dir,
    env: {
      ...process.env,
      CLOUDFLARE_ACCOUNT_ID: '',
      WRANGLER: join(ROOT, 'test/fixtures/fake-wrangler.mjs'),
      SMOKE: join(ROOT, 'test/fixtures/fake-smoke.mjs'),
      FAKE_WRANGLER_STATE: state,
      CLOUDFLARE_API_BASE_URL: `${api.url}/${encodeURIComponent(state)}`,
      ...env,
    },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      stdout: err.stdout,
      stderr: err.stderr,
    }),
  )
  const account = read(state)
  return {
    ...result,
    output: result.stdout + result.stderr,
    account,
    calls: account.calls.slice(before),
  }
}

/** The calls that create or change something on the account. */
const changes = (calls: string[]) =>
  calls.filter((c) =>
    /^(d1 create|queues create|r2 bucket create|d1 migrations|secret (put|bulk)|versions (upload|deploy)|triggers deploy)|^deploy( (?!--dry-run)|$)/.test(
      c,
    ),
  )
// the shipped wrangler.toml has the local mail catcher and Cloudflare's Turnstile test keys
const ok = { allowNoMail: '--allow-no-mail', allowNoChallenge: '--allow-no-challenge' }
const liveVersion = (a: Account) => a.worker?.deployments.at(-1)?.versions[0].version_id

describe('npm run deploy: a first deploy and a second with nothing changed', () => {
  it('checks, creates, migrates, deploys with its secrets, smokes; then creates and replaces nothing', async () => {
    const project = setup()
    const first = await deploy(project, [ok.allowNoMail, ok.allowNoChallenge])
    expect(first.code, first.output).toBe(0)
    // the pre-flight reads first; nothing is created before it has passed
    const firstChange = first.calls.findIndex((c) => changes([c]).length)
    expect(first.calls.slice(0, firstChange)).toEqual([
      'deploy --dry-run --var ENVIRONMENT:production',
      'whoami --json',
      'r2 bucket list',
      'auth token --json',
      `API GET /accounts/${ACCOUNT.id}/workers/subdomain`,
      `API POST /accounts/${ACCOUNT.id}/analytics_engine/sql`,
      `API GET /accounts/${ACCOUNT.id}/subscriptions`,
      'secret list --format json',
      'd1 list --json',
      'queues info growth-agency-mail',
      'queues info growth-agency-newsletters',
      'queues info growth-agency-calendar',
      'queues info growth-agency-media',
      'queues info growth-agency-webhooks',
      'queues info growth-agency-mail-dlq',
      'r2 bucket info growth-agency-media --json',
    ])
    expect(changes(first.calls).map((c) => c.split(' --')[0])).toEqual([
      'd1 create growth-agency',
      'queues create growth-agency-mail',
      'queues create growth-agency-newsletters',
      'queues create growth-agency-calendar',
      'queues create growth-agency-media',
      'queues create growth-agency-webhooks',
      'queues create growth-agency-mail-dlq',
      'r2 bucket create growth-agency-media',
      'd1 migrations apply DB',
      'deploy',
    ])
    const a = first.account
    // the secrets went with the first version, from a file only its owner could read, since gone
    expect(a.secretsUploaded).toEqual(['AUTH_SIGNING_KEY', 'LINK_SECRET'])
    expect(a.secretsFileMode).toBe('600')
    expect(existsSync(a.secretsFilePath as string)).toBe(false)
    const [version] = a.worker!.versions
    expect(version.database).toBe((a.databases as { uuid: string }[])[0].uuid)
    expect(a.migratedDatabase).toBe(version.database)
    // production mode, and SITE_URL (empty in wrangler.toml) set to the address it deploys to
    expect(version.vars.ENVIRONMENT).toBe('production')
    expect(version.vars.SITE_URL).toBe('https://growth-agency.northstar.workers.dev')
    // no Turnstile keys, deployed with --allow-no-challenge: the challenge is off, on purpose
    expect(version.vars.TURNSTILE_ENABLED).toBe('false')
    const built = JSON.parse(
      readFileSync(join(project.dir, 'dist/growth_agency/wrangler.json'), 'utf8'),
    )
    expect(built.secrets.required).toEqual(['AUTH_SIGNING_KEY', 'LINK_SECRET'])
    expect(first.calls.at(-1)).toBe(
      `smoke https://growth-agency.northstar.workers.dev ${version.id}`,
    )
    expect(first.stdout.trim().split('\n').at(-1)).toBe(
      'Live: https://growth-agency.northstar.workers.dev',
    )

    // again, nothing changed: nothing created, no secret sent, one new version, smoked first
    const second = await deploy(project, [ok.allowNoMail, ok.allowNoChallenge])
    expect(second.code, second.output).toBe(0)
    const made = changes(second.calls)
    expect(made.map((c) => c.split(' --')[0])).toEqual([
      'd1 migrations apply DB',
      'versions upload',
      `versions deploy ${second.account.worker!.versions[1].id}@100`,
      'triggers deploy',
    ])
    expect(made.join(' ')).not.toContain('--secrets-file')
    expect(second.account.worker!.versions).toHaveLength(2)
    expect(second.account.secretsUploaded).toEqual(['AUTH_SIGNING_KEY', 'LINK_SECRET'])
    expect(second.output).toContain('AUTH_SIGNING_KEY, LINK_SECRET: set, left as they are')
    const v2 = second.account.worker!.versions[1].id
    const smokes = second.calls.filter((c) => c.startsWith('smoke'))
    expect(smokes).toEqual([
      `smoke https://${v2.slice(0, 8)}-growth-agency.northstar.workers.dev ${v2}`,
      `smoke https://growth-agency.northstar.workers.dev ${v2}`,
    ])
    // the preview was smoked before the version got any traffic
    expect(second.calls.indexOf(smokes[0])).toBeLessThan(
      second.calls.findIndex((c) => c.startsWith('versions deploy')),
    )

    // and --rollback brings the first version back, then smokes it at the live address with
    // its own check token (read with versions view: the fake smoke refuses any other)
    const back = await deploy(project, ['--rollback'])
    expect(back.code, back.output).toBe(0)
    expect(liveVersion(back.account)).toBe(version.id)
    expect(back.calls.slice(-2)).toEqual([
      `versions deploy ${version.id}@100 --yes --message npm run deploy --rollback from ${v2}`,
      `smoke https://growth-agency.northstar.workers.dev ${version.id}`,
    ])
    expect(back.calls).toContain(`versions view ${version.id} --json`)
    expect(back.stdout.trim().split('\n').at(-1)).toBe(
      `Rolled back: version ${version.id} (deployed ${a.worker!.deployments[0].created_on}) serves all traffic at https://growth-agency.northstar.workers.dev and passed its smoke test; ${v2} gets none.`,
    )
  })
})

describe('npm run deploy -- --dry-run: the pre-flight', () => {
  it('offline, with the shipped wrangler.toml: refuses the mail settings (provider and sender)', async () => {
    const project = setup({ offline: true })
    const { code, stderr, calls } = await deploy(project, ['--dry-run'])
    expect(code).toBe(1)
    expect(stderr).toContain('mail: MAIL_PROVIDER is smtp and SMTP_HOST is 127.0.0.1')
    expect(stderr).toContain(
      'mail: MAIL_FROM is "Northstar Growth <hello@growthagency.example>", a placeholder sender',
    )
    // each with its own fix
    expect(stderr).toContain('npx wrangler secret put SMTP_PASS')
    expect(stderr).toContain('set MAIL_FROM in wrangler.toml to an address on a domain')
    expect(stderr).toContain('--allow-no-mail')
    expect(changes(calls)).toEqual([])
  })

  it('refuses the Turnstile test keys and a missing secret, unless --allow-no-challenge', async () => {
    const project = setup()
    const { code, stderr, calls } = await deploy(project, ['--dry-run', ok.allowNoMail])
    expect(code).toBe(1)
    expect(stderr).toContain(
      "bots: TURNSTILE_SITE_KEY is 1x00000000000000000000AA, Cloudflare's test key, which lets every bot through",
    )
    expect(stderr).toContain('bots: the secret TURNSTILE_SECRET_KEY is not set')
    expect(stderr).toContain('--allow-no-challenge')
    expect(changes(calls)).toEqual([])
  })

  it('offline, with --allow-no-mail: passes and says the account was skipped', async () => {
    const project = setup({ offline: true })
    const { code, stdout, calls } = await deploy(project, [
      '--dry-run',
      '--allow-no-mail',
      '--allow-no-challenge',
    ])
    expect(code).toBe(0)
    expect(stdout).toContain('account: skipped, Cloudflare could not be reached')
    expect(stdout).toContain(
      'Dry run: nothing was created, stored or uploaded. The account was skipped',
    )
    expect(changes(calls)).toEqual([])
  })
})

describe.concurrent('npm run deploy stops before it creates anything', () => {
  async function refused(
    account: Record<string, unknown>,
    flags = [ok.allowNoMail, ok.allowNoChallenge],
  ) {
    const project = setup(account)
    const result = await deploy(project, flags)
    expect(result.code, result.output).toBe(1)
    expect(changes(result.calls)).toEqual([])
    expect(result.stderr).toContain('The deploy stops here, before it creates anything')
    return result
  }

  it('when nobody is logged in (whoami --json exits non-zero)', async () => {
    const { stderr } = await refused({ loggedIn: false })
    expect(stderr).toContain('nobody is logged in to Cloudflare')
    expect(stderr).toContain('npx wrangler login')
  })

  it('when the login has several accounts and none is chosen, listing them', async () => {
    const { stderr } = await refused({ accounts: [ACCOUNT, OTHER] })
    expect(stderr).toContain('this login has 2 accounts')
    expect(stderr).toContain(`CLOUDFLARE_ACCOUNT_ID=<id> npm run deploy`)
    expect(stderr).toContain(`${OTHER.id}  ${OTHER.name}`)
    // chosen, it goes on (the pre-flight of that account passes)
    const project = setup({ accounts: [ACCOUNT, OTHER] })
    const chosen = await deploy(project, ['--dry-run', ok.allowNoMail, ok.allowNoChallenge], {
      CLOUDFLARE_ACCOUNT_ID: OTHER.id,
    })
    expect(chosen.code, chosen.output).toBe(0)
    expect(chosen.calls).toContain(`API GET /accounts/${OTHER.id}/workers/subdomain`)
  })

  it('when R2 is not enabled (10042), with the dashboard link', async () => {
    const { stderr } = await refused({ r2Enabled: false })
    expect(stderr).toContain('R2 is not enabled on this account (API error 10042)')
    expect(stderr).toContain(`https://dash.cloudflare.com/${ACCOUNT.id}/r2/overview`)
  })

  it('when Analytics Engine is not enabled (the upload would get 10089), with the dashboard link', async () => {
    const { stderr } = await refused({ aeEnabled: false })
    expect(stderr).toContain('Analytics Engine is not enabled on this account')
    expect(stderr).toContain('10089')
    expect(stderr).toContain(`https://dash.cloudflare.com/${ACCOUNT.id}/workers/analytics-engine`)
  })

  it('when the account has no workers.dev subdomain and wrangler.toml no route', async () => {
    const { stderr } = await refused({ subdomain: null })
    expect(stderr).toContain('no workers.dev subdomain')
    expect(stderr).toContain(`https://dash.cloudflare.com/${ACCOUNT.id}/workers/onboarding`)
  })

  it('on the Workers Free plan, unless --allow-free-plan', async () => {
    const { stderr } = await refused({ plan: 'free' })
    expect(stderr).toContain('Workers Free plan')
    expect(stderr).toContain('--allow-free-plan')
  })

  it('when a Cloudflare Build Output is in the project (wrangler 4.164 refuses to deploy it, but not in a --dry-run)', async () => {
    const project = setup()
    mkdirSync(join(project.dir, '.cloudflare/output/v0'), { recursive: true })
    const result = await deploy(project, [ok.allowNoMail, ok.allowNoChallenge])
    expect(result.code, result.output).toBe(1)
    expect(changes(result.calls)).toEqual([])
    expect(result.stderr).toContain('The deploy stops here, before it creates anything')
    expect(result.stderr).toContain('a Cloudflare Build Output is at .cloudflare/output')
    expect(result.stderr).toContain('delete .cloudflare/output')
  })

  it('when `secret list` fails for another reason than "Worker not found": no key is generated', async () => {
    const project = setup(deployed({ secretListFailures: 1 }))
    const keysBefore = read(project.state).secretsUploaded
    const failed = await deploy(project, [ok.allowNoMail, ok.allowNoChallenge])
    expect(failed.code).toBe(1)
    expect(changes(failed.calls)).toEqual([])
    expect(failed.stderr).toContain("the Worker's secrets could not be read")
    expect(failed.stderr).toContain('Internal server error [code: 10013]')
    expect(failed.stderr).toContain('run again')
    expect(failed.account.secretsUploaded).toEqual(keysBefore)
    // run again: it goes through and replaces no secret
    const again = await deploy(project, [ok.allowNoMail, ok.allowNoChallenge])
    expect(again.code, again.output).toBe(0)
    expect(again.account.secretsUploaded).toEqual(keysBefore)
  })

  it('when a Worker of that name exists that npm run deploy did not deploy, unless --adopt', async () => {
    const version = { id: crypto.randomUUID(), database: '', vars: {} }
    const worker = {
      secrets: ['SOMETHING'],
      versions: [version],
      deployments: [
        {
          created_on: '2026-01-01T00:00:00Z',
          annotations: {},
          versions: [{ version_id: version.id, percentage: 100 }],
        },
      ],
    }
    const { stderr } = await refused({ worker })
    expect(stderr).toContain(
      'a Worker named "growth-agency" is already on this account, and npm run deploy did not deploy it',
    )
    expect(stderr).toContain('--adopt')
    const adopted = await deploy(setup({ worker }), [
      '--dry-run',
      ok.allowNoMail,
      ok.allowNoChallenge,
      '--adopt',
    ])
    expect(adopted.code, adopted.output).toBe(0)
    expect(adopted.output).toContain('(adopted: --adopt)')
  })
})

describe('npm run deploy finds resources by name, whatever the pages', () => {
  it('a queue on the second page of `queues list` is found, not created again', async () => {
    const others = Array.from({ length: 25 }, (_, i) => `another-site-${i}`)
    const project = setup({ queues: [...others, 'growth-agency-mail'], queuePageSize: 20 })
    const { code, calls, output } = await deploy(project, [ok.allowNoMail, ok.allowNoChallenge])
    expect(code, output).toBe(0)
    expect(output).toContain(
      "queue growth-agency-mail already on the account before this site's first deploy",
    )
    expect(changes(calls).filter((c) => c.startsWith('queues create'))).toEqual([
      'queues create growth-agency-newsletters',
      'queues create growth-agency-calendar',
      'queues create growth-agency-media',
      'queues create growth-agency-webhooks',
      'queues create growth-agency-mail-dlq',
    ])
  })
})

describe('npm run deploy keeps the previous version when the new one fails', () => {
  it('a version that fails its smoke test at its preview URL gets no traffic', async () => {
    const project = setup(deployed({ brokenUploads: true }))
    const serving = liveVersion(read(project.state))
    const { code, stderr, calls, account } = await deploy(project, [
      ok.allowNoMail,
      ok.allowNoChallenge,
    ])
    expect(code).toBe(1)
    expect(calls.some((c) => c.startsWith('versions upload'))).toBe(true)
    expect(calls.some((c) => c.startsWith('versions deploy'))).toBe(false)
    expect(liveVersion(account)).toBe(serving)
    expect(stderr).toContain(`gets no traffic: version ${serving} still serves`)
  })
})

describe('npm run deploy -- --rollback smokes the version it restores', () => {
  const LIVE = 'https://growth-agency.northstar.workers.dev'
  /** An account whose deployments sent traffic to each version in turn, the last one serving. */
  function history(versions: { id: string; vars: Record<string, string>; broken?: boolean }[]) {
    return deployed({
      worker: {
        secrets: ['AUTH_SIGNING_KEY', 'LINK_SECRET'],
        versions: versions.map((v) => ({ database: 'db-1', ...v })),
        deployments: versions.map((v, i) => ({
          created_on: `2026-11-0${i + 1}T00:00:00Z`,
          annotations: {
            'workers/message': i ? `npm run deploy: live ${v.id}` : 'npm run deploy: first version',
          },
          versions: [{ version_id: v.id, percentage: 100 }],
        })),
      },
    })
  }
  const version = (vars: Record<string, string> = {}, broken = false) => ({
    id: crypto.randomUUID(),
    vars: { DEPLOY_CHECK_TOKEN: crypto.randomUUID(), ...vars },
    broken,
  })

  it('a restored version that fails: exit 1, which version serves, the earlier good one', async () => {
    // v0 has no SITE_URL var (its address: the workers.dev subdomain), v1 is broken
    const [v0, v1, v2] = [version(), version({ SITE_URL: LIVE }, true), version({ SITE_URL: LIVE })]
    const project = setup(history([v0, v1, v2]))
    const failed = await deploy(project, ['--rollback'])
    expect(failed.code, failed.output).toBe(1)
    expect(liveVersion(failed.account)).toBe(v1.id)
    // smoked after the switch, and nothing rolled back further
    expect(failed.calls.slice(-2)).toEqual([
      `versions deploy ${v1.id}@100 --yes --message npm run deploy --rollback from ${v2.id}`,
      `smoke ${LIVE} ${v1.id}`,
    ])
    expect(changes(failed.calls)).toHaveLength(1)
    expect(failed.stderr).toContain(
      `Rolled back from ${v2.id}, but the version restored FAILED its smoke test (above): version ${v1.id} (deployed 2026-11-02T00:00:00Z) serves all traffic at ${LIVE} now. Nothing is rolled back further by itself.`,
    )
    expect(failed.stderr).toContain(
      `Earlier versions that passed their smoke test: ${v0.id} (deployed 2026-11-01T00:00:00Z). npm run deploy -- --rollback again sends all traffic to ${v0.id}`,
    )
    expect(failed.output).not.toContain('Rolled back: ')

    // which it does, and v0 passes at the workers.dev address
    const again = await deploy(project, ['--rollback'])
    expect(again.code, again.output).toBe(0)
    expect(liveVersion(again.account)).toBe(v0.id)
    expect(again.calls).toContain(`API GET /accounts/${ACCOUNT.id}/workers/subdomain`)
    expect(again.calls.at(-1)).toBe(`smoke ${LIVE} ${v0.id}`)
    expect(again.stdout).toContain(`Rolled back: version ${v0.id}`)
    expect(again.stdout).toContain('and passed its smoke test')
  })

  it('an address it cannot know is said, not smoked', async () => {
    const [v0, v1] = [version(), version()]
    const project = setup({ ...history([v0, v1]), subdomain: null })
    const { code, stderr, calls, account } = await deploy(project, ['--rollback'])
    expect(code).toBe(1)
    expect(liveVersion(account)).toBe(v0.id)
    expect(calls.some((c) => c.startsWith('smoke'))).toBe(false)
    expect(stderr).toContain(`Rolled back from ${v1.id}, but NOT checked: version ${v0.id}`)
    expect(stderr).toContain(
      'its live address is not known: it has no SITE_URL var, wrangler.toml neither SITE_URL nor a route, and the account has no workers.dev subdomain',
    )
    expect(stderr).toContain('No earlier version passed its smoke test')
  })
})
