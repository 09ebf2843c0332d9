import { Hono } from 'hono'
import { importJWK, jwtVerify, SignJWT } from 'jose'
import { openLink, sealLink } from './consent/links'
import { ALG, publicKeys, signingKey } from './auth-service/keys'
import { sameToken } from './hash'
import { unreachableHost } from './mail/smtp-reach.mjs'
import type { Bindings } from './bindings'
import type { AppEnv } from './env'

/**
 * What the deploy's smoke test (scripts/smoke.mjs) reads of the version it has just uploaded:
 * the parts a page load does not show. Behind the token the deploy gives each version it uploads
 * (DEPLOY_CHECK_TOKEN, a var of that version alone); without it, a 404 like any unknown path.
 * Reads only, and never a secret's value: a sealed link and a signed token are made and opened.
 */
export const deployStatus = new Hono<AppEnv>()

/** The producers of wrangler.toml's queues, each of which must be bound. */
const QUEUES = ['MAIL_QUEUE', 'NEWSLETTER_QUEUE', 'CALENDAR_QUEUE', 'MEDIA_QUEUE'] as const

/** Whether e-mail can leave: the provider's setting or secret, never its value. */
function mailReady(env: Bindings) {
  switch (env.MAIL_PROVIDER) {
    case 'resend':
      return Boolean(env.RESEND_API_KEY)
    case 'cloudflare':
      return Boolean(env.SEND_EMAIL)
    case 'smtp':
      return !unreachableHost(env.SMTP_HOST)
    default:
      return false
  }
}

const attempt = async <T>(fn: () => Promise<T>): Promise<T | { error: string }> =>
  fn().catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }))

deployStatus.get('/status', async (c) => {
  const env = c.env
  const given = c.req.header('Authorization')?.replace(/^Bearer /, '')
  const expected = env.DEPLOY_CHECK_TOKEN
  if (!expected || !given || !(await sameToken(expected, given))) return c.notFound()
  const db = env.DB
  const [migrations, crons, r2, links, signing] = await Promise.all([
    attempt(() =>
      db
        .prepare('SELECT count(*) AS count, max(name) AS last FROM d1_migrations')
        .first<{ count: number; last: string }>(),
    ),
    attempt(
      async () =>
        (
          await db
            .prepare('SELECT cron, ran_at, ok FROM cron_runs')
            .all<{ cron: string; ran_at: string; ok: number }>()
        ).results,
    ),
    attempt(async () => (await env.MEDIA.list({ limit: 1 }), true)),
    attempt(async () => {
      const nonce = crypto.randomUUID()
      const opened = await openLink(env, await sealLink(env, { p: 'confirm', n: nonce }), 'confirm')
      return opened.ok && opened.claims.n === nonce
    }),
    attempt(async () => {
      if (env.AUTH_URL) return { ok: true, from: 'hosted' }
      const key = await signingKey(env)
      const token = await new SignJWT({ check: true })
        .setProtectedHeader({ alg: ALG, kid: key.kid })
        .sign(key.privateKey)
      const pub = (await publicKeys(env)).find((k) => k.kid === key.kid)
      if (!pub) return { ok: false, from: 'none' }
      await jwtVerify(token, await importJWK(pub, ALG))
      return { ok: true, from: env.AUTH_SIGNING_KEY ? 'secret' : 'generated' }
    }),
  ])
  c.header('Cache-Control', 'no-store')
  return c.json({
    version: env.CF_VERSION_METADATA?.id ?? null,
    environment: env.ENVIRONMENT,
    migrations,
    queues: Object.fromEntries(QUEUES.map((q) => [q, typeof env[q]?.send === 'function'])),
    crons,
    r2,
    mail: { provider: env.MAIL_PROVIDER, ready: mailReady(env) },
    links,
    signing,
  })
})

/** The scheduled handler, recording each trigger's run in cron_runs (read above). */
export function recordingRuns(
  handler: (controller: ScheduledController, env: Bindings) => Promise<void>,
) {
  return async (controller: ScheduledController, env: Bindings) => {
    let ok = false
    try {
      await handler(controller, env)
      ok = true
    } finally {
      await env.DB.prepare(
        'INSERT INTO cron_runs (cron, ran_at, ok) VALUES (?, ?, ?) ON CONFLICT (cron) DO UPDATE SET ran_at = excluded.ran_at, ok = excluded.ok',
      )
        .bind(controller.cron, new Date().toISOString(), ok ? 1 : 0)
        .run()
        .catch((err) => console.error('cron_runs: not recorded', err))
    }
  }
}
