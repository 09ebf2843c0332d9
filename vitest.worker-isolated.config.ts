import { defineConfig } from 'vitest/config'
import { workerProject } from './vitest.worker.config.ts'

// The worker test files that need a workerd of their own (ISOLATED in vitest.worker.config.ts).
export default defineConfig(() => workerProject(true))
