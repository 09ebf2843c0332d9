import { defineConfig } from 'vitest/config'

// Browser tests: the production build served by `wrangler dev`, driven by Debian's Chromium.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['./test/setup/server.ts'],
    setupFiles: ['./test/setup/servers-ready.ts'],
    // hang guards, sized for a machine several times slower than this one (a CI run took 2.5
    // times as long as a quiet run here, and the desk's 17 s walk then ran past 60 s)
    testTimeout: 180_000,
    hookTimeout: 240_000,
    // One browser per file, two files at a time: with three, the busy machine delayed a popup's
    // timer and an e-mail past what a visitor would wait (two fresh-clone runs, one flake each)
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { groupOrder: 1 },
  },
})
