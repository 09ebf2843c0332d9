import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { exportJWK, generateKeyPair } from 'jose'
import { describe, expect, it } from 'vitest'
import worker from '../../worker/index'

// /__deploy/status, what the deploy's smoke test reads of a version it has just uploaded: behind
// the token the deploy gives that version, the parts a page does not show.

const TOKEN = 'a-check-token-of-this-version'

async function status(token: string | undefined, extra: Record<string, unknown> = {}) {
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request('https://example.com/__deploy/status', {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    }),
    { ...env, DEPLOY_CHECK_TOKEN: TOKEN, ...extra },
    ctx,
  )
  await waitOnExecutionContext(ctx)
  return res
}

describe('/__deploy/status', () => {
  it('is a 404 without the token, with another, and when no token was given to the version', async () => {
    expect((await status(undefined)).status).toBe(404)
    expect((await status('another-token')).status).toBe(404)
    expect((await status(TOKEN, { DEPLOY_CHECK_TOKEN: undefined })).status).toBe(404)
  })

  it('names the last migration, the queues, R2, the mail provider, a sealed link and a signed token', async () => {
    const res = await status(TOKEN)
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const body = await res.json<Record<string, unknown>>()
    const names = env.TEST_MIGRATIONS.map((m) => m.name).sort()
    expect(body.migrations).toEqual({ count: names.length, last: names.at(-1) })
    expect(body.queues).toEqual({
      MAIL_QUEUE: true,
      NEWSLETTER_QUEUE: true,
      CALENDAR_QUEUE: true,
      MEDIA_QUEUE: true,
    })
    expect(body.r2).toBe(true)
    // the tests' SMTP is the local catcher: no mail would leave Cloudflare
    expect(body.mail).toEqual({ provider: 'smtp', ready: false })
    // nor from a private network's relay, by the pre-flight's own rule; a public relay can
    for (const [host, ready] of [
      ['10.0.0.5', false],
      ['192.168.1.20', false],
      ['relay.home.local', false],
      ['smtp.sendgrid.net', true],
    ] as const)
      expect(
        (await (await status(TOKEN, { SMTP_HOST: host })).json<{ mail: unknown }>()).mail,
      ).toEqual({ provider: 'smtp', ready })
    expect(body.links).toBe(true)
    expect(body.signing).toEqual({ ok: true, from: 'generated' })
    expect(JSON.stringify(body)).not.toMatch(/"d":|LINK_SECRET|private/)
  })

  it('in production: the signing key and the link secret are the secrets, and mail is ready', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true })
    const jwk = { ...(await exportJWK(privateKey)), kid: 'k1', alg: 'ES256' }
    const res = await status(TOKEN, {
      ENVIRONMENT: 'production',
      AUTH_SIGNING_KEY: JSON.stringify(jwk),
      LINK_SECRET: 'x'.repeat(43),
      MAIL_PROVIDER: 'resend',
      RESEND_API_KEY: 're_test',
    })
    const body = await res.json<Record<string, unknown>>()
    expect(body.signing).toEqual({ ok: true, from: 'secret' })
    expect(body.links).toBe(true)
    expect(body.mail).toEqual({ provider: 'resend', ready: true })
    // without the link secret, production cannot seal a link: the status says so
    const without = await (
      await status(TOKEN, { ENVIRONMENT: 'production', AUTH_SIGNING_KEY: JSON.stringify(jwk) })
    ).json<{ links: unknown }>()
    expect(without.links).toEqual({ error: expect.stringContaining('LINK_SECRET is not set') })
  })

  it("records each cron trigger's last run", async () => {
    const before = Date.now()
    await worker.scheduled(
      { cron: '0 7 * * *', scheduledTime: Date.now(), noRetry() {} } as ScheduledController,
      env,
    )
    const { crons } = await (
      await status(TOKEN)
    ).json<{ crons: { cron: string; ran_at: string; ok: number }[] }>()
    const daily = crons.find((c) => c.cron === '0 7 * * *')!
    expect(daily.ok).toBe(1)
    expect(Date.parse(daily.ran_at)).toBeGreaterThanOrEqual(before - 1000)
  })
})
