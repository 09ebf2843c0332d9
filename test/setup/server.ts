import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import type { TestProject } from 'vitest/node'
import { startMailCatcher } from '../../scripts/lib/mail-catcher.mjs'
import { startServer } from '../../scripts/lib/server.mjs'

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
    /** The same build served with tracker IDs configured (the consent tests). */
    trackersURL: string
    /** A site whose sign-in goes to another instance's built-in service (AUTH_URL mode). */
    remoteSiteURL: string
    /** That other instance: the "hosted" auth service of the remote-mode test. */
    authServiceURL: string
    /** The local mail catcher's web inbox and API (maildev), where every server's e-mail lands. */
    mailCatcherURL: string
    /** The build on a D1 that was never migrated: what `npm run smoke` must catch. */
    brokenD1URL: string
  }
}

const E2E_STATE = '.wrangler/e2e-state'
export const TRACKERS_STATE = '.wrangler/e2e-trackers'
const AUTH_STATE = '.wrangler/e2e-auth-service'
const REMOTE_STATE = '.wrangler/e2e-remote-site'
const BROKEN_STATE = '.wrangler/e2e-broken-d1'
export const TRACKERS = { META_PIXEL_ID: '123456789012345', GA_MEASUREMENT_ID: 'G-ABC123XYZ' }

/**
 * Builds the site and serves it on fresh, migrated local D1s, as `npm start` does: once as
 * configured by default, once with trackers, and a pair for the remote auth mode (one instance's
 * built-in service as the other's AUTH_URL). Started one after the other, before any test, so
 * no server starts while another is answering.
 */
export default async function setup(project: TestProject) {
  if (!process.env.E2E_SKIP_BUILD)
    execFileSync('npm', ['run', 'build', '--silent', '--', '--logLevel', 'warn'], {
      stdio: 'inherit',
    })
  for (const state of [E2E_STATE, TRACKERS_STATE, AUTH_STATE, REMOTE_STATE, BROKEN_STATE])
    rmSync(state, { recursive: true, force: true })
  // every server delivers its e-mails to one local catcher, as `npm start` does
  const catcher = await startMailCatcher()
  // sign-ups confirmed at once, so the tests sign straight in (README: AUTH_AUTOCONFIRM)
  const mail = { SMTP_PORT: String(catcher.smtpPort), AUTH_AUTOCONFIRM: 'true' }
  const main = await startServer({ persistTo: E2E_STATE, vars: mail })
  const trackers = await startServer({ persistTo: TRACKERS_STATE, vars: { ...mail, ...TRACKERS } })
  const authService = await startServer({ persistTo: AUTH_STATE, vars: mail })
  const remoteSite = await startServer({
    persistTo: REMOTE_STATE,
    vars: { ...mail, AUTH_URL: `${authService.baseURL}/auth/v1`, AUTH_API_KEY: 'local-anon-key' },
  })
  const brokenD1 = await startServer({
    persistTo: BROKEN_STATE,
    vars: mail,
    migrated: false,
    quiet: true,
  })
  project.provide('mailCatcherURL', catcher.webURL)
  project.provide('brokenD1URL', brokenD1.baseURL)
  project.provide('baseURL', main.baseURL)
  project.provide('trackersURL', trackers.baseURL)
  project.provide('authServiceURL', authService.baseURL)
  project.provide('remoteSiteURL', remoteSite.baseURL)
  return () => {
    for (const server of [main, trackers, authService, remoteSite, brokenD1, catcher]) server.stop()
  }
}
