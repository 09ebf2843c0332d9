import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import type { TestProject } from 'vitest/node'
import { startCalDavServer } from '../../scripts/lib/caldav-server.mjs'
import { startMailCatcher } from '../../scripts/lib/mail-catcher.mjs'
import { freePort, migrate, reservePort, run, startServer } from '../../scripts/lib/server.mjs'
import {
  DUMMY_SECRET,
  DUMMY_SITE_KEY,
  startTurnstileStandin,
} from '../../scripts/lib/turnstile-standin.mjs'
import { d1DirOf, startWebhookCatcher } from '../../scripts/lib/webhook-catcher.mjs'

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
    /** The main server's agency calendar: the local CalDAV server `npm start` runs. */
    calendarURL: string
    /** The local Turnstile stand-in every server's forms are challenged by (its base URL; its
     * `/__standin/verifications` lists the siteverify calls it received). */
    turnstileURL: string
    /** The same build on a D1 of its own for the experiments' test (test/e2e/experiments.test.ts):
     * an experiment running there asks every visitor of its page for consent and shows some of
     * them B, which no other file's visitors should meet. */
    experimentsURL: string
    /** The local webhook catcher `npm start` runs (its base URL; `/api/deliveries` lists what
     * arrived, each checked against the main server's endpoints' secrets). */
    webhookCatcherURL: string
  }
}

const E2E_STATE = '.wrangler/e2e-state'
export const TRACKERS_STATE = '.wrangler/e2e-trackers'
const AUTH_STATE = '.wrangler/e2e-auth-service'
const REMOTE_STATE = '.wrangler/e2e-remote-site'
const BROKEN_STATE = '.wrangler/e2e-broken-d1'
const EXPERIMENTS_STATE = '.wrangler/e2e-experiments'
const CALDAV_STATE = '.wrangler/e2e-caldav'
/** One D1 migrated once, copied for each server (each migration is a wrangler run of its own). */
const MIGRATED_STATE = '.wrangler/e2e-migrated'
/** The main server's key to /__deploy/status (a deployed version's comes from npm run deploy). */
export const E2E_CHECK_TOKEN = 'e2e-deploy-check-token'
export const TRACKERS = { META_PIXEL_ID: '123456789012345', GA_MEASUREMENT_ID: 'G-ABC123XYZ' }

/** Where the servers' start is reported to the browser tests' files (servers-ready.ts). */
export const READY_FILE = 'test-results/e2e-servers.json'

/**
 * Where the browser files claim the times they book (test/e2e/slot-claims.ts): they run at once
 * against one server, which refuses a time already taken. Cleared with the servers' state.
 */
export const CLAIMS_DIR = 'test-results/claimed-slots'

/**
 * Builds the site and serves it on fresh, migrated local D1s (migrated once, then copied), as
 * `npm start` does: once as configured by default, once with trackers, a pair for the remote
 * auth mode (one instance's built-in service as the other's AUTH_URL), one on a D1 never
 * migrated (the smoke test's failure) and one for the experiments' test. Their ports are handed
 * out at once and they start in the background, one after another (five at once beside the
 * worker tests overran a start), while the worker tests run; each browser test file waits for
 * READY_FILE before its first test.
 */
export default async function setup(project: TestProject) {
  mkdirSync('test-results', { recursive: true })
  rmSync(READY_FILE, { force: true })
  rmSync(CLAIMS_DIR, { recursive: true, force: true })
  for (const state of [
    E2E_STATE,
    TRACKERS_STATE,
    AUTH_STATE,
    REMOTE_STATE,
    BROKEN_STATE,
    EXPERIMENTS_STATE,
    CALDAV_STATE,
    MIGRATED_STATE,
  ])
    rmSync(state, { recursive: true, force: true })
  // held until each server starts: the worker tests' stand-ins draw ports meanwhile, and one
  // that took a browser server's port answered in its place ("ok" for the D1 explorer)
  const reserved = await Promise.all(Array.from({ length: 6 }, () => reservePort()))
  const [main, trackers, authService, remoteSite, brokenD1, experiments] = reserved.map(
    (r) => r.port,
  )
  const release = (port: number) => reserved.find((r) => r.port === port)!.release()
  const url = (port: number) => `http://127.0.0.1:${port}`
  // every server delivers its e-mails to one local catcher, as `npm start` does
  const catcher = await startMailCatcher()
  project.provide('mailCatcherURL', catcher.webURL)
  project.provide('baseURL', url(main))
  project.provide('trackersURL', url(trackers))
  project.provide('authServiceURL', url(authService))
  project.provide('remoteSiteURL', url(remoteSite))
  project.provide('brokenD1URL', url(brokenD1))
  project.provide('experimentsURL', url(experiments))
  // the main server's agency calendar, as `npm start` gives it one; read again every second
  // here (README: Booking), so a test sees the agency's new event at its next page
  const calendar = await startCalDavServer({
    port: await freePort(),
    file: `${CALDAV_STATE}/agency.json`,
  })
  project.provide('calendarURL', calendar.url)
  const agencyCalendar = {
    CALDAV_URL: calendar.url,
    CALDAV_USERNAME: calendar.username,
    CALDAV_PASSWORD: calendar.password,
    CALENDAR_REFRESH_SECONDS: '1',
  }

  // every server's forms challenged by one local Turnstile stand-in, as `npm start` does
  const standin = await startTurnstileStandin()
  project.provide('turnstileURL', standin.url)

  // the webhooks' endpoint, as `npm start` runs it: it checks each delivery with the secrets in
  // the main server's D1 (read when one arrives, after the copy below)
  const webhooks = await startWebhookCatcher({ d1Dir: d1DirOf(E2E_STATE) })
  project.provide('webhookCatcherURL', webhooks.url)

  // what every server gets: the catcher, sign-ups confirmed at once so the tests sign straight
  // in (README: AUTH_AUTOCONFIRM), and Cloudflare's test keys against the stand-in
  const common = {
    SMTP_PORT: String(catcher.smtpPort),
    AUTH_AUTOCONFIRM: 'true',
    // webhooks may go to http://127.0.0.1 (the catcher), as npm start lets them
    WEBHOOK_ALLOW_LOCAL: 'true',
    TURNSTILE_SCRIPT_URL: standin.scriptURL,
    TURNSTILE_VERIFY_URL: standin.verifyURL,
    TURNSTILE_SITE_KEY: DUMMY_SITE_KEY,
    TURNSTILE_SECRET_KEY: DUMMY_SECRET,
    // production's 5 s for siteverify: the stand-in answers from the test runner's own process,
    // which a busy machine kept past 1.5 s (an account refused 500 "captcha verification
    // process failed" in a full run)
  }
  type Server = Awaited<ReturnType<typeof startServer>>
  const servers = (async () => {
    const started: Server[] = []
    const failed: string[] = []
    try {
      // the build without holding vitest's event loop: the worker tests run meanwhile
      if (!process.env.E2E_SKIP_BUILD)
        await run('npm', ['run', 'build', '--silent', '--', '--logLevel', 'warn'])
      await migrate(MIGRATED_STATE)
      for (const options of [
        {
          port: main,
          persistTo: E2E_STATE,
          // as npm start: what the queue and the crons write links to this site; and the key to
          // /__deploy/status, as npm run deploy gives each version (smoke.test.ts)
          vars: {
            ...common,
            ...agencyCalendar,
            SITE_URL: url(main),
            DEPLOY_CHECK_TOKEN: E2E_CHECK_TOKEN,
          },
        },
        { port: trackers, persistTo: TRACKERS_STATE, vars: { ...common, ...TRACKERS } },
        { port: authService, persistTo: AUTH_STATE, vars: common },
        {
          port: remoteSite,
          persistTo: REMOTE_STATE,
          vars: {
            ...common,
            AUTH_URL: `${url(authService)}/auth/v1`,
            AUTH_API_KEY: 'local-anon-key',
          },
        },
        { port: brokenD1, persistTo: BROKEN_STATE, vars: common, migrated: false, quiet: true },
        {
          port: experiments,
          persistTo: EXPERIMENTS_STATE,
          vars: { ...common, SITE_URL: url(experiments) },
        },
      ]) {
        if (options.migrated !== false)
          cpSync(`${MIGRATED_STATE}/v3/d1`, `${options.persistTo}/v3/d1`, { recursive: true })
        await release(options.port)
        await startServer({ ...options, migrated: false }).then(
          (server) => started.push(server),
          (err) => failed.push(String(err)),
        )
      }
    } catch (err) {
      failed.push(String(err))
    }
    writeFileSync(READY_FILE, JSON.stringify({ ok: failed.length === 0, failed }))
    return started
  })()
  return async () => {
    for (const server of await servers) server.stop()
    // (those of servers that never started)
    for (const r of reserved) await r.release()
    catcher.stop()
    calendar.stop()
    await standin.stop()
    await webhooks.stop()
  }
}
