import { defineConfig } from 'vitest/config'

// One run, two projects: the worker tests inside workerd first, then the browser tests
// against the production build (groupOrder keeps them apart on a two-core machine).
export default defineConfig({
  test: {
    projects: ['./vitest.worker.config.ts', './vitest.e2e.config.ts'],
  },
})
