import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, inject, it } from 'vitest'

// `npm run smoke -- URL`, the operator's check after a deploy, on the local site; and on a site
// whose database was never migrated, where it must fail and say why.

const run = promisify(execFile)
const smoke = (url: string) =>
  run('node', ['scripts/smoke.mjs', url]).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
  )

describe('npm run smoke', () => {
  it('passes on the local site: every page in six languages, auth, D1, assets, a bad body', async () => {
    const { code, stdout } = await smoke(inject('baseURL'))
    expect(stdout).toMatch(/all \d+ checks passed \((\d+) pages\)/)
    expect(Number(stdout.match(/\((\d+) pages\)/)![1]) % 6).toBe(0)
    expect(code).toBe(0)
  })

  it('fails, naming D1, when the database binding does not work', async () => {
    const { code, stdout } = await smoke(inject('brokenD1URL'))
    expect(code).toBe(1)
    expect(stdout).toMatch(/FAIL D1 \(booking slots .*\): answered 5\d\d/)
  })
})
