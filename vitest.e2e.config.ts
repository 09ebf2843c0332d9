import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

class LongFirst extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files)
    const long = (f: TestSpecification) => /\/a11y[^/]*\.test\.ts$/.test(f.moduleId)
    return [...sorted.filter(long), ...sorted.filter((f) => !long(f))]
  }
}

// Browser tests: the production build served by `wrangler dev`, driven by Debian's Chromium.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['./test/setup/server.ts'],
    setupFiles: ['./test/setup/servers-ready.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One browser per file; three files at a time: a browser test waits on the server, the
    // network, a popup's delay or the inbox for much of its time.
    fileParallelism: true,
    maxWorkers: 3,
    // the long audits first, so no long file starts last (vitest's default: larger files first)
    sequence: { groupOrder: 1, sequencer: LongFirst },
  },
})
