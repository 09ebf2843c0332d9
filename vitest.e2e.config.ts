import { defineConfig } from 'vitest/config'

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
    sequence: { groupOrder: 1 },
  },
})
