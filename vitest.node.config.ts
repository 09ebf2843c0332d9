import { defineConfig } from 'vitest/config'

// Tests of the operator's scripts that need neither workerd nor the browser servers: plain Node,
// beside the worker tests (npm run deploy against a stand-in Cloudflare account).
export default defineConfig({
  test: {
    name: 'node',
    include: ['test/node/**/*.test.ts'],
    testTimeout: 60_000,
    sequence: { groupOrder: 0 },
  },
})
