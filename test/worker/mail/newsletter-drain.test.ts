import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LANGS } from '../../../client/lib/languages'
import type { Bindings } from '../../../worker/bindings'
import { sendStep, startIssue, type NewsletterJob } from '../../../worker/newsletter/send'
import { issueWith } from '../newsletter'

// A newsletter to 50,000 confirmed subscribers in six languages, through a stand-in for Resend
// that allows 2 requests a second (429 with Retry-After beyond that), fails 5 % of calls with a
// 503 and keeps idempotency keys as Resend does. The newsletter queue is played out on a
// simulated clock, one step (one Worker invocation) at a time, each step's D1 statements, D1
// time and provider calls counted: every subscriber gets exactly one e-mail, in their language.

afterEach(() => vi.restoreAllMocks())

/** Confirmed subscribers `from`..`to` (ids in the address), languages in turn. */
async function subscribers(prefix: string, from: number, to: number) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT CAST(?2 AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
     INSERT INTO subscribers (email, name, signup_form, language, consent_version, status,
                              consented_at, confirmed_at)
     SELECT ?1 || '-' || i || '@example.org', NULL, 'newsletter',
            json_extract(?4, '$[' || (i % 6) || ']'), '2026-11-01', 'confirmed',
            '2026-11-01T00:00:00Z', '2026-11-01T00:00:00Z'
     FROM n`,
  )
    .bind(prefix, from, to, JSON.stringify(LANGS))
    .run()
}

const texts = Object.fromEntries(
  LANGS.map((l) => [
    l,
    {
      subject: `Issue in ${l}`,
      body: `## ${l}: five fixes\n\nHello in **${l}**. Read [the guide](/blog).`,
    },
  ]),
)

/**
 * The database as one invocation sees it, counting what it asks of D1: statements (a batch
 * counts each of its statements) and the time D1 spent on them.
 */
function metered(db: D1Database) {
  const meter = { statements: 0, ms: 0 }
  const real = new WeakMap<object, D1PreparedStatement>()
  // D1's own account of the time its statements took (meta.duration)
  const timed = async <T>(n: number, run: () => Promise<T>) => {
    meter.statements += n
    const result = await run()
    for (const r of Array.isArray(result) ? result : [result])
      meter.ms += (r as D1Result | null)?.meta?.duration ?? 0
    return result
  }
  const wrap = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, name) {
        if (name === 'bind') return (...args: unknown[]) => wrap(target.bind(...args))
        const value = Reflect.get(target, name, target) as unknown
        if (typeof value !== 'function') return value
        // first() as all(), for its meta
        if (name === 'first')
          return (column?: string) =>
            timed(1, () => target.all()).then((r) => {
              const row = (r.results[0] ?? null) as Record<string, unknown> | null
              return column && row ? row[column] : row
            })
        if (['run', 'all', 'raw'].includes(String(name)))
          return (...args: unknown[]) => timed(1, () => value.apply(target, args))
        return value.bind(target)
      },
    })
    real.set(proxy, statement)
    return proxy
  }
  const database = {
    prepare: (sql: string) => wrap(db.prepare(sql)),
    batch: (statements: D1PreparedStatement[]) =>
      timed(statements.length, () => db.batch(statements.map((s) => real.get(s) ?? s))),
  } as unknown as D1Database
  return { database, meter }
}

interface Standin {
  calls: number
  tooMany: number
  failures: number
  replays: number
  /** E-mails accepted, by address; the language of each. */
  received: Map<string, { count: number; lang: string }>
}

/** Resend's /emails/batch as the issue describes it, on the simulated clock. */
function resendStandin(now: () => number): Standin {
  const s: Standin = { calls: 0, tooMany: 0, failures: 0, replays: 0, received: new Map() }
  const recent: number[] = []
  const keys = new Map<string, { body: string; answer: unknown }>()
  let seed = 11
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init)
    expect(request.url).toBe('https://api.resend.com/emails/batch')
    s.calls++
    const t = now()
    while (recent.length && recent[0] <= t - 1000) recent.shift()
    if (recent.length >= 2) {
      s.tooMany++
      return Response.json(
        { name: 'rate_limit_exceeded', message: 'Too many requests' },
        { status: 429, headers: { 'Retry-After': '1' } },
      )
    }
    recent.push(t)
    if (random() < 0.05) {
      s.failures++
      return Response.json({ name: 'internal_server_error', message: 'down' }, { status: 503 })
    }
    const key = request.headers.get('Idempotency-Key')!
    const body = await request.text()
    const seen = keys.get(key)
    if (seen) {
      s.replays++
      return seen.body === body
        ? Response.json(seen.answer)
        : Response.json({ name: 'invalid_idempotent_request' }, { status: 409 })
    }
    const emails = JSON.parse(body) as { to: string[]; html: string }[]
    expect(emails.length).toBeLessThanOrEqual(100)
    for (const e of emails) {
      const got = s.received.get(e.to[0])
      const lang = /<html lang="([a-z]+)"/.exec(e.html)![1]
      s.received.set(e.to[0], { count: (got?.count ?? 0) + 1, lang })
    }
    const answer = { data: emails.map((_, i) => ({ id: `${key}-${i}` })) }
    keys.set(key, { body, answer })
    return Response.json(answer)
  })
  return s
}

/** Starts the issue and plays its steps out; what the run took. */
async function drain(issue: number, rate: string) {
  let clock = Date.parse('2026-12-01T09:00:00Z')
  const simulated = {
    now: () => clock,
    sleep: async (ms: number) => void (clock += ms),
  }
  const steps: number[] = []
  const queue = {
    send: async (_: NewsletterJob, options?: QueueSendOptions) =>
      void steps.push(clock + (options?.delaySeconds ?? 0) * 1000),
  } as unknown as Queue<NewsletterJob>
  const site: Bindings = {
    ...env,
    MAIL_PROVIDER: 'resend',
    RESEND_API_KEY: 're_test',
    RESEND_RATE_PER_SECOND: rate,
    NEWSLETTER_QUEUE: queue,
  }
  // the pace starts afresh: no earlier run's calls count against this one
  await env.DB.exec('DELETE FROM mail_pace')
  const started = clock
  expect(await startIssue(site, issue, 'drain test')).toBe(true)
  const provider = resendStandin(simulated.now)
  const invocations: { statements: number; d1ms: number; calls: number }[] = []
  while (steps.length) {
    steps.sort((a, b) => a - b)
    clock = Math.max(clock, steps.shift()!)
    const { database, meter } = metered(env.DB)
    const before = provider.calls
    const { next } = await sendStep({ ...site, DB: database }, issue, simulated)
    invocations.push({
      statements: meter.statements,
      d1ms: Math.round(meter.ms),
      calls: provider.calls - before,
    })
    if (next !== null) steps.push(clock + next * 1000)
    expect(invocations.length).toBeLessThan(5000)
  }
  return { provider, invocations, seconds: (clock - started) / 1000 }
}

const outcome = async (issue: number) => {
  const { results } = await env.DB.prepare(
    'SELECT status, COUNT(*) AS n FROM mail_outbox WHERE newsletter_id = ? GROUP BY status',
  )
    .bind(issue)
    .all<{ status: string; n: number }>()
  return Object.fromEntries(results.map((r) => [r.status, r.n]))
}

describe('a newsletter to 50,000 subscribers', () => {
  it(
    'set faster than the provider allows, meets 429s: each a wait, nothing lost or sent twice',
    { timeout: 120_000 },
    async () => {
      await subscribers('big', 1, 3_000)
      const issue = await issueWith(texts)
      const { provider, invocations } = await drain(issue, '5')
      const counts = [...provider.received.values()]
      expect(provider.tooMany).toBeGreaterThan(0)
      expect(provider.received.size).toBe(3_000)
      expect(counts.filter((c) => c.count > 1)).toEqual([])
      expect(await outcome(issue)).toEqual({ sent: 3_000 })
      // a 429 costs no attempt: none of the e-mails that met one is near its last
      const { n } = (await env.DB.prepare(
        'SELECT max(attempts) AS n FROM mail_outbox WHERE newsletter_id = ?',
      )
        .bind(issue)
        .first<{ n: number }>())!
      expect(n).toBeLessThan(4)
      expect(Math.max(...invocations.map((i) => i.statements + i.calls))).toBeLessThanOrEqual(1000)
    },
  )

  it(
    'keeps to a provider that allows 2 calls a second, fails 5 %: one e-mail each, none failed',
    { timeout: 300_000 },
    async () => {
      // the first test's 3,000 and 47,000 more
      await subscribers('big', 3_001, 50_000)
      const issue = await issueWith(texts)
      const run = await drain(issue, '2')
      const { provider, invocations } = run
      const counts = [...provider.received.values()]
      const figures = {
        subscribers: 50_000,
        delivered: provider.received.size,
        duplicates: counts.filter((c) => c.count > 1).length,
        providerCalls: provider.calls,
        rateLimited: provider.tooMany,
        failedCalls: provider.failures,
        replays: provider.replays,
        invocations: invocations.length,
        maxSubrequests: Math.max(...invocations.map((i) => i.statements + i.calls)),
        maxD1Ms: Math.max(...invocations.map((i) => i.d1ms)),
        simulatedDrainSeconds: run.seconds,
        outbox: await outcome(issue),
      }
      console.log('newsletter drain', JSON.stringify(figures))
      expect(figures.delivered).toBe(50_000)
      expect(figures.duplicates).toBe(0)
      expect(figures.outbox).toEqual({ sent: 50_000 })
      // every e-mail in its subscriber's language
      const wrong = [...provider.received.entries()].filter(
        ([to, c]) => c.lang !== LANGS[Number(/-(\d+)@/.exec(to)![1]) % 6],
      )
      expect(wrong).toEqual([])
      expect(figures.maxSubrequests).toBeLessThanOrEqual(1000)
      expect(figures.maxD1Ms).toBeLessThan(30_000)
      // 500 calls of 100 at 2 a second, plus the retried 5 %: a few minutes, not hours
      expect(figures.simulatedDrainSeconds).toBeLessThan(600)
      const row = await env.DB.prepare(
        'SELECT status, written, audience FROM newsletter_issues WHERE id = ?',
      )
        .bind(issue)
        .first()
      expect(row).toEqual({ status: 'sent', written: 50_000, audience: 50_000 })
    },
  )
})
