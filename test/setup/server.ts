import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import type { TestProject } from 'vitest/node'
import { startServer } from '../../scripts/lib/server.mjs'

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
    /** The same build served with tracker IDs configured (the consent tests). */
    trackersURL: string
  }
}

export const E2E_STATE = '.wrangler/e2e-state'
const TRACKERS_STATE = '.wrangler/e2e-trackers'
export const TRACKERS = { META_PIXEL_ID: '123456789012345', GA_MEASUREMENT_ID: 'G-ABC123XYZ' }

/**
 * Builds the site and serves it on fresh, migrated local D1s, as `npm start` does: once as
 * configured by default, once with trackers. Started one after the other, before any test, so
 * no server starts while another is answering.
 */
export default async function setup(project: TestProject) {
  if (!process.env.E2E_SKIP_BUILD)
    execFileSync('npm', ['run', 'build', '--silent', '--', '--logLevel', 'warn'], {
      stdio: 'inherit',
    })
  rmSync(E2E_STATE, { recursive: true, force: true })
  rmSync(TRACKERS_STATE, { recursive: true, force: true })
  const main = await startServer({ persistTo: E2E_STATE })
  const trackers = await startServer({ persistTo: TRACKERS_STATE, vars: TRACKERS })
  project.provide('baseURL', main.baseURL)
  project.provide('trackersURL', trackers.baseURL)
  return () => {
    main.stop()
    trackers.stop()
  }
}
