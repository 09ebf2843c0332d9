import { readdirSync, readFileSync } from 'node:fs'
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'
import { freePort } from './scripts/lib/server.mjs'
import { DUMMY_SECRET, DUMMY_SITE_KEY } from './scripts/lib/turnstile-standin.mjs'
import { clientAssets, workerAliases } from './vite.config.ts'

/**
 * The files that test what a new isolate or a site of their own starts with (an empty memory,
 * no snapshot yet, no generation read, a migration replayed, no bookmark, every slot of the
 * calendar free, the seeded articles alone in the sitemap): each in a workerd of its own
 * (vitest.worker-isolated.config.ts). Found by running the others shuffled (`--sequence.shuffle`).
 */
export const ISOLATED = [
  'test/worker/outage.test.ts',
  'test/worker/outage-snapshot.test.ts',
  'test/worker/db/lead-ids.test.ts',
  'test/worker/middleware/d1-session.test.ts',
  'test/worker/i18n.test.ts',
  'test/worker/booking.test.ts',
  'test/worker/booking-calendar.test.ts',
  'test/worker/seo.test.ts',
  'test/worker/content-pages.test.ts',
  // its Owner must be the site's only one (the database holds one)
  'test/worker/desk/team.test.ts',
  // their running experiments would show other files' visitors a variant B
  'test/worker/experiments/engine.test.ts',
  'test/worker/desk/experiments.test.ts',
]

/** The environment variables the global setups read their ports from. */
const SERVICES = {
  smtp: 'TEST_MAIL_SMTP_PORT',
  web: 'TEST_MAIL_WEB_PORT',
  radicale: 'TEST_RADICALE_PORT',
  turnstile: 'TEST_TURNSTILE_PORT',
  webhook: 'TEST_WEBHOOK_PORT',
} as const
type Ports = Record<keyof typeof SERVICES, number>

/**
 * The local services' ports, chosen once for both worker projects: vitest loads their configs
 * apart and at the same time, so the choice is one promise both await (two choices raced, and
 * one project's Worker called a stand-in on a port nobody listened on). The global setups read
 * them from the environment.
 */
function servicePorts(): Promise<Ports> {
  const shared = globalThis as { workerTestPorts?: Promise<Ports> }
  shared.workerTestPorts ??= (async () => {
    const ports = {} as Ports
    for (const [service, name] of Object.entries(SERVICES) as [keyof Ports, string][]) {
      ports[service] = await freePort()
      process.env[name] = String(ports[service])
    }
    return ports
  })()
  return shared.workerTestPorts
}

/**
 * Worker tests run inside workerd with the wrangler.toml bindings and a migrated local D1. The
 * mail queue's consumer runs too, delivering over SMTP to a mail catcher of the tests' own
 * (test/setup/mail-catcher.ts starts it on these ports). The forms' challenge is verified by a
 * local Turnstile stand-in (test/setup/turnstile.ts), with Cloudflare's test keys.
 *
 * Most files share a workerd per runner, one after another (`isolate: false`): each file in a
 * workerd of its own spent 1.5–4 s starting it and loading the Worker's modules again, half of
 * the worker tests' time (200 s against 97 s here). Their tests make their own addresses,
 * leads and items, so a file finds others' rows beside its own and counts only its own. The
 * files of ISOLATED test a fresh isolate and stay one workerd each.
 */
export async function workerProject(isolated: boolean) {
  const ports = await servicePorts()
  const turnstileURL = `http://127.0.0.1:${ports.turnstile}`
  return {
    plugins: [
      clientAssets(),
      cloudflareTest({
        main: './worker/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          // an empty database of its own for test/worker/migration-files.test.ts
          d1Databases: { MIGRATION_FILES_DB: 'migration-files' },
          bindings: {
            TEST_MIGRATIONS: await readD1Migrations('./migrations'),
            // each file whole, in wrangler's order (by name): as `d1 migrations apply --remote`
            // sends each to the D1 API, one query a file
            TEST_MIGRATION_FILES: readdirSync('./migrations')
              .filter((name) => name.endsWith('.sql'))
              .sort()
              .map((name) => ({ name, sql: readFileSync(`./migrations/${name}`, 'utf8') })),
            SMTP_PORT: String(ports.smtp),
            // sign-ups confirmed at once, as before; the confirmation tests turn it off
            AUTH_AUTOCONFIRM: 'true',
            // the site-wide hourly ceiling of e-mails to unconfirmed addresses (100), which the
            // files sharing a database pass together; the tests of the ceiling set their own
            MAIL_UNCONFIRMED_HOURLY_LIMIT: '100000',
            MAIL_CATCHER_URL: `http://127.0.0.1:${ports.web}`,
            // a CalDAV server of the tests' own (test/setup/radicale.ts); each test that needs
            // a calendar makes its own collection there
            TEST_RADICALE_URL: `http://127.0.0.1:${ports.radicale}/`,
            TURNSTILE_SCRIPT_URL: `${turnstileURL}/turnstile/v0/api.js`,
            TURNSTILE_VERIFY_URL: `${turnstileURL}/turnstile/v0/siteverify`,
            TURNSTILE_SITE_KEY: DUMMY_SITE_KEY,
            TURNSTILE_SECRET_KEY: DUMMY_SECRET,
            // for the tests that read what it received (/__standin/verifications)
            TURNSTILE_STANDIN_URL: turnstileURL,
            // webhooks may go to the tests' receiver (test/setup/webhook-receiver.ts), on
            // http://127.0.0.1; the tests of production's rules set it empty
            WEBHOOK_ALLOW_LOCAL: 'true',
            WEBHOOK_RECEIVER_URL: `http://127.0.0.1:${ports.webhook}`,
          },
        },
      }),
    ],
    // the modules the Worker does without, as the build resolves them
    resolve: { alias: workerAliases },
    // the media tests' iPhone photo (test/fixtures/pictures), imported as a data URL like the others
    assetsInclude: ['**/*.heic'],
    test: {
      name: isolated ? 'worker-isolated' : 'worker',
      isolate: isolated,
      sequence: { groupOrder: 0 },
      // three files at once, each in a workerd of its own (a fresh D1 per file): vitest's
      // default on two cores is one, and a file's workerd spends seconds starting, a test waits
      // on its mail or a timer (with two, a third of the machine stayed idle)
      maxWorkers: 3,
      // hang guards, sized for a machine several times slower than this one (vitest's default
      // of 5 s is a wait for a mail or a queue on a busy one; an e-mail's own wait is 60 s,
      // test/worker/inbox.ts); a longer test names its own
      testTimeout: 90_000,
      hookTimeout: 60_000,
      include: isolated ? ISOLATED : ['test/worker/**/*.test.{ts,tsx}'],
      exclude: isolated ? [] : ISOLATED,
      // the local services both projects use, started once (by this one)
      globalSetup: isolated
        ? []
        : [
            './test/setup/mail-catcher.ts',
            './test/setup/radicale.ts',
            './test/setup/turnstile.ts',
            './test/setup/webhook-receiver.ts',
          ],
      setupFiles: ['./test/setup/apply-migrations.ts'],
      // sanitize-html is CommonJS requiring CommonJS (launder, parse-srcset): bundled for
      // workerd. The others are bundled too, one file each instead of their many modules: every
      // test file loads the Worker anew, and this took its start-up from about 9.5 to 6 s here
      deps: {
        optimizer: {
          ssr: {
            enabled: true,
            include: [
              'sanitize-html',
              'ical.js',
              'fast-xml-parser',
              'marked',
              'jose',
              'valibot',
              'date-fns',
              'date-fns-tz',
              'rosetta',
              'otpauth',
              'html-to-text',
            ],
          },
        },
      },
    },
  }
}

export default defineConfig(() => workerProject(false))
