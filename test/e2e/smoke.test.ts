import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, inject, it } from 'vitest'
import { E2E_CHECK_TOKEN } from '../setup/server'

// `npm run smoke -- URL`, the operator's check after a deploy, on the local site; and on a site
// whose database was never migrated, where it must fail and say why.

const run = promisify(execFile)
const smoke = (url: string, args: string[] = [], env: Record<string, string> = {}) =>
  run('node', ['scripts/smoke.mjs', url, ...args], { env: { ...process.env, ...env } }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
  )

describe('npm run smoke', () => {
  it('passes on the local site: every page in six languages, auth, D1, assets, a bad body', async () => {
    // every page of the sitemap (the content tests publish and unpublish articles meanwhile,
    // in some languages only: the count is the sitemap's just before or just after)
    const sitemapPages = async () =>
      [...(await (await fetch(`${inject('baseURL')}/sitemap.xml`)).text()).matchAll(/<loc>/g)]
        .length
    const before = await sitemapPages()
    const { code, stdout } = await smoke(inject('baseURL'))
    const after = await sitemapPages()
    expect(stdout).toMatch(/all \d+ checks passed \((\d+) pages\)/)
    const visited = Number(stdout.match(/\((\d+) pages\)/)![1])
    expect(visited).toBeGreaterThan(200)
    expect([before, after]).toContain(visited)
    expect(code).toBe(0)
  })

  it('fails, naming D1, when the database binding does not work', async () => {
    const { code, stdout } = await smoke(inject('brokenD1URL'))
    expect(code).toBe(1)
    expect(stdout).toMatch(/FAIL D1 \(booking slots .*\): answered 5\d\d/)
  })

  it("with the version's token: reads its status (migrations, queues, R2, links, key), and knows another version", async () => {
    const base = inject('baseURL')
    const status = await fetch(`${base}/__deploy/status`, {
      headers: { Authorization: `Bearer ${E2E_CHECK_TOKEN}` },
    })
    const { version } = (await status.json()) as { version: string }
    const env = { DEPLOY_CHECK_TOKEN: E2E_CHECK_TOKEN, SMOKE_WAIT_SECONDS: '0' }
    // the local site sends its mail to the catcher: the one check that fails, not for production
    const noMail = await smoke(base, ['--version', version], env)
    expect(noMail.code).toBe(1)
    expect(noMail.stdout).toMatch(
      /: 1 of \d+ checks failed\n {2}FAIL mail: MAIL_PROVIDER smtp is not ready/,
    )
    const passed = await smoke(base, ['--version', version, '--allow-no-mail'], env)
    expect(passed.stdout).toMatch(new RegExp(`all \\d+ checks passed .* on version ${version}`))
    expect(passed.code).toBe(0)
    const other = await smoke(base, ['--version', '00000000-0000-4000-8000-000000000000'], env)
    expect(other.code).toBe(1)
    expect(other.stdout).toContain(
      `FAIL /__deploy/status: version ${version} answered, not 00000000`,
    )
  })
})
