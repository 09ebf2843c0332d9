import { existsSync, readFileSync } from 'node:fs'
import { beforeAll } from 'vitest'
import { READY_FILE } from './server'

// Each browser test file starts once the servers server.ts starts in the background answer.
beforeAll(async () => {
  const deadline = Date.now() + 300_000
  while (!existsSync(READY_FILE)) {
    if (Date.now() > deadline) throw new Error('the test servers did not start within 5 minutes')
    await new Promise((r) => setTimeout(r, 250))
  }
  const { ok, failed } = JSON.parse(readFileSync(READY_FILE, 'utf8'))
  if (!ok) throw new Error(`the test servers did not start: ${failed.join('; ')}`)
}, 310_000)
