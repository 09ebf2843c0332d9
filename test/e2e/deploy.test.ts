import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, inject, it } from 'vitest'

// `npm run deploy` against a stand-in for wrangler that keeps an account's state and records the
// calls; its "live URL" is the browser tests' server, so the smoke test at the end is real.

const run = promisify(execFile)
const base = inject('baseURL')

const accounts: string[] = []
afterAll(() => accounts.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

function account() {
  const dir = mkdtempSync(join(tmpdir(), 'account-'))
  accounts.push(dir)
  const file = join(dir, 'state.json')
  writeFileSync(
    file,
    JSON.stringify({ calls: [], databases: [], queues: [], secrets: [], worker: false, url: base }),
  )
  return file
}

async function deploy(state: string, ...flags: string[]) {
  const env = {
    ...process.env,
    WRANGLER: resolve('test/fixtures/fake-wrangler.mjs'),
    FAKE_WRANGLER_STATE: state,
  }
  const out = await run('node', ['scripts/deploy.mjs', '--skip-build', ...flags], { env })
  const account = JSON.parse(readFileSync(state, 'utf8'))
  return { stdout: out.stdout, account, calls: account.calls as string[] }
}

/** Which step each recorded call belongs to, in order, repeats folded. */
const stepsOf = (calls: string[]) =>
  calls
    .map((c) =>
      /^(d1 list|d1 create|queues|r2 bucket)/.test(c)
        ? 'provision'
        : c.startsWith('secret')
          ? 'secrets'
          : c.startsWith('d1 migrations')
            ? 'migrations'
            : c.startsWith('deploy')
              ? 'deploy'
              : 'other',
    )
    .filter((s, i, all) => s !== 'other' && s !== all[i - 1])

describe('npm run deploy', () => {
  it('provisions, stores the secrets, migrates, deploys and smoke-tests, in that order', async () => {
    const state = account()
    const { stdout, account: after, calls } = await deploy(state)
    expect(stepsOf(calls)).toEqual(['provision', 'secrets', 'migrations', 'deploy'])
    expect(calls).toContain('d1 create growth-agency')
    expect(calls).toContain('queues create growth-agency-mail')
    expect(calls).toContain('queues create growth-agency-mail-dlq')
    expect(calls).toContain('r2 bucket create growth-agency-media')
    expect(after.secrets.sort()).toEqual(['AUTH_SIGNING_KEY', 'LINK_SECRET'])
    // the database it created is the one migrated and bound, in production mode
    const [db] = after.databases
    expect(after.migratedDatabase).toBe(db.uuid)
    expect(after.deployedDatabase).toBe(db.uuid)
    expect(after.deployedVars).toContain('ENVIRONMENT:production')
    // then the smoke test of the live URL, last
    expect(stdout).toMatch(/smoke .*: all \d+ checks passed/)
    expect(stdout.trim().split('\n').at(-1)).toBe(`Live: ${base}`)

    // run again: nothing created, no secret replaced; migrations and the code only
    const again = await deploy(state)
    const second = again.calls.slice(calls.length)
    expect(second.filter((c) => /create|secret bulk/.test(c))).toEqual([])
    expect(stepsOf(second)).toEqual(['provision', 'secrets', 'migrations', 'deploy'])
    expect(again.account.databases).toHaveLength(1)
    expect(again.account.buckets).toEqual(['growth-agency-media'])
    expect(again.account.secrets.sort()).toEqual(['AUTH_SIGNING_KEY', 'LINK_SECRET'])
    expect(again.stdout).toContain('left as they are')
  })

  it('--dry-run prints the plan and calls nothing but the bundle check', async () => {
    const state = account()
    const { stdout, calls } = await deploy(state, '--dry-run')
    for (const step of ['1. provision', '2. secrets', '3. migrations', '4. deploy', '5. smoke'])
      expect(stdout).toContain(step)
    expect(stdout).toContain('Dry run: nothing was created, stored or uploaded.')
    expect(calls).toEqual(['deploy --dry-run --var ENVIRONMENT:production'])
  })
})
