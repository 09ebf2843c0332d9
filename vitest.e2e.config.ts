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
    // expect.poll's own default is one second, which a busy machine outran (the editor's lazy
    // preview, in a full run with three files at a time): a hang guard like the others
    expect: { poll: { timeout: 60_000 } },
    // One browser per file, three files at a time: most files wait on pages, e-mails and late
    // scripts more than they work (a third of the two cores stayed idle with two). Two was the
    // limit while tests waited fixed times (a popup's timer, an e-mail) that a busy machine
    // outran; they now wait for conditions, or move the page's clock (issue 56).
    fileParallelism: true,
    maxWorkers: 3,
    sequence: { groupOrder: 1 },
  },
})
