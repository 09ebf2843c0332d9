import { defineConfig } from 'vitest/config'

// Tests of the operator's scripts that need neither workerd nor the browser servers: plain Node,
// beside the worker tests (npm run deploy against a stand-in Cloudflare account).
export default defineConfig({
  test: {
    name: 'node',
    include: ['test/node/**/*.test.ts'],
    // a hang guard, sized for a machine several times slower (vitest.e2e.config.ts)
    testTimeout: 120_000,
    // in the worker tests' group, so the same number of files at once (vitest refuses a group
    // whose projects differ in it)
    sequence: { groupOrder: 0 },
    maxWorkers: 3,
  },
})
