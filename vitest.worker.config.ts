import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'
import { blogContent } from './scripts/blog-content'
import { clientAssets } from './vite.config'

// Worker tests run inside workerd with the wrangler.toml bindings and a migrated local D1.
export default defineConfig(async () => ({
  plugins: [
    clientAssets(),
    blogContent(),
    cloudflareTest({
      main: './worker/index.ts',
      wrangler: { configPath: './wrangler.toml' },
      miniflare: { bindings: { TEST_MIGRATIONS: await readD1Migrations('./migrations') } },
    }),
  ],
  test: {
    name: 'worker',
    sequence: { groupOrder: 0 },
    include: ['test/worker/**/*.test.{ts,tsx}'],
    setupFiles: ['./test/setup/apply-migrations.ts'],
  },
}))
