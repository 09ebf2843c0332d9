import { defineConfig } from 'vitest/config'

// Browser tests: the production build served by `wrangler dev`, driven by Debian's Chromium.
export default defineConfig({
  test: {
    name: 'e2e',
    sequence: { groupOrder: 1 },
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['./test/setup/server.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // One browser per file; files run in parallel on the two cores.
    fileParallelism: true,
    maxWorkers: 2,
  },
})
