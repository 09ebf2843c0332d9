import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../worker/bindings'
import { onSchedule } from '../../worker/scheduled'
import { sendReminders } from '../../worker/services/reminders'
import { bookSlot, calendarEvents, newCalendar, slotsOf } from './calendar'
import { unique } from './mail/helpers'

// The five-minute cron: a reminder is claimed and written in one D1 batch, so a failure between
// the two loses none; each of the cron's steps runs whatever the others did.

afterEach(() => vi.restoreAllMocks())

/**
 * A D1 whose statements matching `pattern` fail where they run, as D1 fails a statement: alone,
 * or inside a batch, which then fails whole (D1 runs a batch as one transaction).
 */
function failingWhere(db: D1Database, pattern: RegExp): D1Database {
  const fails = () => db.prepare('SELECT * FROM d1_failure_injected_by_the_test')
  // each statement handed out, and the one D1 runs for it
  const runs = new WeakMap<object, D1PreparedStatement>()
  const wrap = (sql: string, statement: D1PreparedStatement): D1PreparedStatement => {
    const run = pattern.test(sql) ? fails() : statement
    const wrapped = {
      bind: (...values: unknown[]) => wrap(sql, statement.bind(...values)),
      first: (column?: string) => run.first(column as string),
      run: () => run.run(),
      all: () => run.all(),
      raw: (options?: { columnNames?: boolean }) => run.raw(options as { columnNames: true }),
    } as unknown as D1PreparedStatement
    runs.set(wrapped, run)
    return wrapped
  }
  return new Proxy(db, {
    get(target, name) {
      if (name === 'prepare') return (sql: string) => wrap(sql, target.prepare(sql))
      if (name === 'batch')
        return (statements: D1PreparedStatement[]) =>
          target.batch(statements.map((s) => runs.get(s) ?? s))
      const value = target[name as keyof D1Database]
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value
    },
  })
}

/** A queue that keeps what it is sent. */
function keptQueue() {
  const sent: unknown[] = []
  const queue = {
    send: async (body: unknown) => void sent.push(body),
    sendBatch: async (messages: { body: unknown }[]) =>
      void sent.push(...messages.map((m) => m.body)),
  } as unknown as Queue
  return { sent, queue }
}

/** A call booked long ago for a free slot: its day-before reminder falls due a day before it. */
async function bookedCall(site: Bindings = env) {
  const email = unique('reminded')
  const slots = await slotsOf(site)
  const slot = slots[Math.floor(Math.random() * slots.length)]
  expect((await bookSlot(site, slot, 'Mary Jackson', email)).status).toBe(200)
  await env.DB.prepare(
    "UPDATE bookings SET created_at = '2026-01-01T00:00:00.000Z' WHERE slot_start = ?",
  )
    .bind(slot)
    .run()
  return { email, at: Date.parse(slot) }
}

/** The reminders written to an address. */
const remindersTo = async (email: string) =>
  (
    await env.DB.prepare(
      "SELECT id, status FROM mail_outbox WHERE kind = 'booking_reminder' AND to_address = ?",
    )
      .bind(email)
      .all<{ id: number; status: string }>()
  ).results

describe('reminders', () => {
  it('a D1 failure between the claim and the e-mail loses no reminder: the next run sends it', async () => {
    const { email, at } = await bookedCall()
    const failing = { ...env, DB: failingWhere(env.DB, /INSERT INTO mail_outbox\b/) }
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await sendReminders(failing, at - 23 * 3600_000).catch(() => {})
    expect(await remindersTo(email)).toEqual([])
    // five minutes later, D1 answering again
    await sendReminders(env, at - 23 * 3600_000 + 5 * 60_000)
    expect(await remindersTo(email)).toHaveLength(1)
    // and only once
    await sendReminders(env, at - 23 * 3600_000 + 10 * 60_000)
    expect(await remindersTo(email)).toHaveLength(1)
  })
})

describe('the five-minute cron', () => {
  it('runs every step when some fail: each failure logged, the run reported failed', async () => {
    const calendar = await newCalendar()
    const { email, at } = await bookedCall()
    // a booking the calendar has not taken yet
    const owed = await bookedCall()
    await env.DB.prepare("UPDATE bookings SET calendar_state = 'pending' WHERE email = ?")
      .bind(owed.email)
      .run()
    // an e-mail left queued too long, and a picture whose sizes were never asked for
    const { id: stale } = (await env.DB.prepare(
      `INSERT INTO mail_outbox (kind, data, category, language, to_address, site_url, subject,
         updated_at)
       VALUES ('agency_digest', '{}', 'agency', 'en', ?, ?, 'Stale', '2026-01-01T00:00:00.000Z')
       RETURNING id`,
    )
      .bind(unique('stale'), 'https://example.com')
      .first<{ id: number }>())!
    const picture = `lost-${crypto.randomUUID()}.png`
    await env.DB.prepare(
      `INSERT INTO media (name, type, width, height, bytes, uploaded_by, sizes_state)
       VALUES (?, 'image/png', 10, 10, 100, 'test', 'pending')`,
    )
      .bind(picture)
      .run()
    const mail = keptQueue()
    const media = keptQueue()
    const site: Bindings = {
      ...calendar.site,
      // the first step (scheduled content) and the calendar's sync fail
      DB: failingWhere(env.DB, /FROM content_items|FROM calendar_deletions/),
      MAIL_QUEUE: mail.queue,
      MEDIA_QUEUE: media.queue,
    }
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const failed = await onSchedule(
        { cron: '*/5 * * * *', scheduledTime: at - 23 * 3600_000, noRetry() {} },
        site,
      ).then(
        () => null,
        (err: Error) => err,
      )
      // the steps after each failure ran: the reminder written and queued, the stale e-mail
      // queued again, the picture's sizes asked for
      const [reminder] = await remindersTo(email)
      expect(reminder).toBeDefined()
      expect(mail.sent).toContainEqual({ id: reminder.id })
      expect(mail.sent).toContainEqual({ id: stale })
      expect(media.sent).toContainEqual({ sizes: picture })
      // the failed calendar step wrote nothing; its failure is in the log with the other
      expect(await calendarEvents(calendar)).toEqual([])
      const logged = errors.mock.calls.map((call) => String(call[0]))
      expect(logged).toContainEqual(expect.stringMatching(/scheduled content/))
      expect(logged).toContainEqual(expect.stringMatching(/calendar/))
      // and the run ends failed, for cron_runs and the platform's log
      expect(failed?.message).toMatch(/scheduled content.*calendar/)
    } finally {
      await env.DB.batch([
        env.DB.prepare('DELETE FROM mail_outbox WHERE id = ?').bind(stale),
        env.DB.prepare('DELETE FROM media WHERE name = ?').bind(picture),
        env.DB.prepare('UPDATE bookings SET calendar_state = NULL WHERE email = ?').bind(
          owed.email,
        ),
      ])
    }
  })
})
