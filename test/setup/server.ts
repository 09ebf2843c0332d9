import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import type { TestProject } from 'vitest/node'
import { startServer } from '../../scripts/lib/server.mjs'

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
  }
}

export const E2E_STATE = '.wrangler/e2e-state'

/** Builds the site and serves it on a fresh, migrated local D1, as `npm start` does. */
export default async function setup(project: TestProject) {
  if (!process.env.E2E_SKIP_BUILD)
    execFileSync('npm', ['run', 'build', '--silent', '--', '--logLevel', 'warn'], {
      stdio: 'inherit',
    })
  rmSync(E2E_STATE, { recursive: true, force: true })
  const { baseURL, stop } = await startServer({ persistTo: E2E_STATE })
  project.provide('baseURL', baseURL)
  return stop
}
