import { env, SELF } from 'cloudflare:test'
import type { Email } from 'postal-mime'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import ar from '../../../locales/ar.json'
import en from '../../../locales/en.json'
import { sealLink } from '../../../worker/consent/links'
import type { Bindings } from '../../../worker/bindings'
import worker from '../../../worker/index'
import { isSuppressed } from '../../../worker/db/outbox'
import { emailHash } from '../../../worker/hash'
import { sendStep, startIssue, type NewsletterJob } from '../../../worker/newsletter/send'
import { SITE, unique } from '../auth/helpers'
import { outboxRows } from '../inbox'
import { delivered } from '../mail/helpers'
import { sentIssue } from '../newsletter'
import { get, person, post } from './helpers'

// The desk's newsletters (worker/desk/newsletters.tsx, worker/newsletter/send.ts): what staff
// do with an issue, and what subscribers then get, or do not.

let staff: { email: string; cookie: string }
beforeAll(async () => {
  staff = await person({ staff: true, secondFactor: true })
})
afterEach(() => vi.restoreAllMocks())

const issueOf = (res: Response) => {
  expect(res.status).toBe(303)
  const url = new URL(res.headers.get('Location')!, SITE)
  return { id: Number(url.pathname.split('/')[3]), done: url.searchParams.get('done') }
}

/** A new issue with its English text saved through the editor; its id. */
async function draft(subject: string, body = 'Hello **subscribers**.\n\n- one\n- two') {
  const { id } = issueOf(await post('/desk/newsletters', {}, staff.cookie))
  const saved = issueOf(
    await post(
      `/desk/newsletters/${id}`,
      { version: '1', tab: 'en', subject, body, action: 'save' },
      staff.cookie,
    ),
  )
  expect(saved.done).toBe('save')
  return id
}

const issueRow = (id: number) =>
  env.DB.prepare('SELECT * FROM newsletter_issues WHERE id = ?')
    .bind(id)
    .first<{ status: string; version: number; send_at: string | null }>()

async function confirmed(prefix: string, n: number, language = 'en') {
  const emails = Array.from({ length: n }, () => unique(prefix))
  await env.DB.batch(
    emails.map((email) =>
      env.DB.prepare(
        `INSERT INTO subscribers (email, signup_form, language, consent_version, status)
         VALUES (?, 'newsletter', ?, '2026-11-01', 'confirmed')`,
      ).bind(email, language),
    ),
  )
  return emails
}

describe('the editor', () => {
  it('is not there for anyone but staff with a second factor', async () => {
    expect((await get('/desk/newsletters')).status).toBe(404)
    const plain = await person({ staff: false, secondFactor: true })
    expect((await get('/desk/newsletters', plain.cookie)).status).toBe(404)
    expect((await get('/desk/newsletters', staff.cookie)).status).toBe(200)
  })

  it('says what is missing, in the staff member’s language, and keeps the text', async () => {
    const { id } = issueOf(await post('/desk/newsletters', {}, staff.cookie))
    const res = await post(
      `/desk/newsletters/${id}?lang=fr`,
      { version: '1', tab: 'en', subject: '', body: 'Kept body text', action: 'save' },
      staff.cookie,
    )
    expect(res.status).toBe(400)
    const html = await res.text()
    expect(html).toContain('Kept body text')
    expect(html).toContain('Remplissez ce champ.')
  })

  it('refuses a save over a newer one with 409, the text sent back', async () => {
    const id = await draft('First subject')
    const stale = await post(
      `/desk/newsletters/${id}`,
      { version: '1', tab: 'en', subject: 'Stale subject', body: 'Stale body', action: 'save' },
      staff.cookie,
    )
    expect(stale.status).toBe(409)
    expect(await stale.text()).toContain('Stale body')
    expect((await issueRow(id))!.version).toBe(2)
  })

  it('shows the e-mail itself in its own frame policy, right-to-left in Arabic', async () => {
    const id = await draft('Preview subject', 'Hello **world**.')
    await post(
      `/desk/newsletters/${id}`,
      { version: '2', tab: 'ar', subject: 'معاينة', body: 'مرحبا **بالعالم**.', action: 'save' },
      staff.cookie,
    )
    const res = await get(`/desk/newsletters/${id}/email?tab=ar`, staff.cookie)
    expect(res.status).toBe(200)
    const csp = res.headers.get('Content-Security-Policy')!
    expect(csp).toContain("frame-ancestors 'self'")
    expect(csp).toContain('sandbox')
    expect(csp).not.toMatch(/script-src/)
    const html = await res.text()
    expect(html).toContain('<html lang="ar" dir="rtl"')
    expect(html).toMatch(/<strong[^>]*>بالعالم<\/strong>/)
    // the preview's unsubscribe link unsubscribes nobody
    expect(html).toContain('/unsubscribe?token=preview')
    expect((await get(`/desk/newsletters/${id}/email?tab=ar`)).status).toBe(404)
  })
})

describe('sending', () => {
  it('a test send reaches only the staff member’s address', async () => {
    const subscribers = await confirmed('nl-test', 2)
    const id = await draft('Tested subject')
    const res = issueOf(
      await post(
        `/desk/newsletters/${id}`,
        { version: '2', tab: 'en', subject: 'Tested subject', body: 'Body', action: 'test' },
        staff.cookie,
      ),
    )
    expect(res.done).toBe('test')
    const mail = await delivered(staff.email, /Tested subject/)
    expect(mail.subject).toBe('[Test] Tested subject')
    expect(mail.html).toContain('Body')
    for (const s of subscribers) expect(await outboxRows(s)).toEqual([])
    expect((await issueRow(id))!.status).toBe('draft')
    const sent = await env.DB.prepare(
      'SELECT COUNT(*) AS n FROM mail_outbox WHERE newsletter_id = ?',
    )
      .bind(id)
      .first<{ n: number }>()
    expect(sent!.n).toBe(0)
  })

  it('refuses to send to no one, says why, and the newsletter stays a draft to send later', async () => {
    const id = await draft('Nobody yet')
    const { results: kept } = await env.DB.prepare(
      "UPDATE subscribers SET status = 'unsubscribed' WHERE status = 'confirmed' RETURNING id",
    ).all<{ id: number }>()
    try {
      const res = await post(
        `/desk/newsletters/${id}`,
        { version: '2', tab: 'en', subject: 'Nobody yet', body: 'Body', action: 'send' },
        staff.cookie,
      )
      expect(res.status).toBe(400)
      expect(await res.text()).toContain(en.desk.newsletters.errors.no_audience)
      expect((await issueRow(id))!.status).toBe('draft')
    } finally {
      if (kept.length)
        await env.DB.batch(
          kept.map((r) =>
            env.DB.prepare("UPDATE subscribers SET status = 'confirmed' WHERE id = ?").bind(r.id),
          ),
        )
    }
  })

  it('shows a scheduled issue’s time in its field, and a time changed there and saved is taken', async () => {
    const id = await draft('Retimed subject')
    const year = new Date().getUTCFullYear() + 1
    const fields = { tab: 'en', subject: 'Retimed subject', body: 'Body' }
    const schedule = { ...fields, version: '2', action: 'schedule', send_at: `${year}-07-01T09:00` }
    expect(issueOf(await post(`/desk/newsletters/${id}`, schedule, staff.cookie)).done).toBe(
      'schedule',
    )
    // 09:00 in London in July is 08:00 UTC; the editor says 9:00, in the field and beside it
    expect((await issueRow(id))!.send_at).toBe(`${year}-07-01T08:00:00.000Z`)
    const html = await (await get(`/desk/newsletters/${id}?tab=en&lang=en`, staff.cookie)).text()
    expect(html).toMatch(new RegExp(`name="send_at"[^>]*value="${year}-07-01T09:00"`))
    expect(html).toContain(`Jul 1, ${year}, 9:00`)
    const row = await issueRow(id)
    const later = { ...fields, version: String(row!.version), action: 'save' }
    await post(
      `/desk/newsletters/${id}`,
      { ...later, send_at: `${year}-07-02T10:30` },
      staff.cookie,
    )
    expect(await issueRow(id)).toMatchObject({
      status: 'scheduled',
      send_at: `${year}-07-02T09:30:00.000Z`,
    })
    await post(`/desk/newsletters/${id}`, { action: 'cancel', tab: 'en' }, staff.cookie)
  })

  it('a cancel before the start sends nothing, even when the time comes', async () => {
    const subscribers = await confirmed('nl-cancel', 2)
    const id = await draft('Cancelled subject')
    const at = new Date(Date.now() + 60 * 60_000)
    const local = at.toLocaleString('sv-SE', { timeZone: 'Europe/London' }).replace(' ', 'T')
    const scheduled = issueOf(
      await post(
        `/desk/newsletters/${id}`,
        {
          version: '2',
          tab: 'en',
          subject: 'Cancelled subject',
          body: 'Body',
          action: 'schedule',
          send_at: local.slice(0, 16),
        },
        staff.cookie,
      ),
    )
    expect(scheduled.done).toBe('schedule')
    expect((await issueRow(id))!.status).toBe('scheduled')
    const cancelled = issueOf(
      await post(`/desk/newsletters/${id}`, { action: 'cancel', tab: 'en' }, staff.cookie),
    )
    expect(cancelled.done).toBe('cancel')
    expect(await issueRow(id)).toMatchObject({ status: 'draft', send_at: null })
    // the schedule's time passes: the Worker's cron starts nothing
    await env.DB.prepare(
      "UPDATE newsletter_issues SET send_at = '2000-01-01T00:00:00.000Z' WHERE id = ?",
    )
      .bind(id)
      .run()
    await worker.scheduled(
      { cron: '*/5 * * * *', scheduledTime: Date.now(), noRetry() {} } as ScheduledController,
      env,
    )
    expect((await issueRow(id))!.status).toBe('draft')
    for (const s of subscribers) expect(await outboxRows(s)).toEqual([])
    const audit = await env.DB.prepare('SELECT action FROM desk_audit WHERE target = ? ORDER BY id')
      .bind(`newsletter/${id}`)
      .all<{ action: string }>()
    expect(audit.results.map((r) => r.action)).toEqual([
      'newsletter.create',
      'newsletter.save',
      // the schedule button saves the text as posted first
      'newsletter.save',
      'newsletter.schedule',
      'newsletter.cancel',
    ])
  })

  it('an unsubscribe in the middle of a send stops that address', async () => {
    // 250 subscribers, three batches of 100 through Resend's batch API
    await env.DB.exec("UPDATE subscribers SET status = 'unsubscribed'")
    const emails = await confirmed('nl-mid', 250)
    const id = await draft('Mid-send subject')
    const steps: number[] = []
    const queue = {
      send: async (job: NewsletterJob) => void steps.push(job.issue),
    } as unknown as Queue<NewsletterJob>
    const site: Bindings = {
      ...env,
      MAIL_PROVIDER: 'resend',
      RESEND_API_KEY: 're_test',
      RESEND_RATE_PER_SECOND: '1000',
      NEWSLETTER_QUEUE: queue,
    }
    const received: string[] = []
    const real = globalThis.fetch
    const last = emails.at(-1)!
    const early = emails[0]
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input as RequestInfo, init)
      if (new URL(request.url).host !== 'api.resend.com') return real(input, init)
      const batch = (await request.json()) as { to: string[] }[]
      received.push(...batch.map((m) => m.to[0]))
      if (received.length === 100) {
        // while the first batch goes out, the last subscriber clicks their e-mail's one-click
        // unsubscribe (RFC 8058), and the first one too, after getting theirs
        for (const who of [last, early]) {
          const token = await sealLink(env, { p: 'unsubscribe', e: who })
          const res = await SELF.fetch(`${SITE}/unsubscribe?token=${token}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: 'List-Unsubscribe=One-Click',
          })
          expect(res.status).toBe(200)
        }
      }
      return Response.json({ data: batch.map((_, i) => ({ id: `re_${received.length}_${i}` })) })
    })
    // started as the desk's button starts it, its step played here with the stand-in provider
    expect(await startIssue(site, id, staff.email)).toBe(true)
    expect(steps).toEqual([id])
    const { next } = await sendStep(site, id)
    expect(next).toBeNull()
    expect(received).toHaveLength(249)
    expect(received).not.toContain(last)
    expect(received).toContain(early)
    expect(new Set(received).size).toBe(249)
    const statuses = await env.DB.prepare(
      `SELECT to_address, status FROM mail_outbox WHERE newsletter_id = ? AND to_address IN (?, ?)`,
    )
      .bind(id, last, early)
      .all<{ to_address: string; status: string }>()
    expect(Object.fromEntries(statuses.results.map((r) => [r.to_address, r.status]))).toEqual({
      [last]: 'suppressed',
      [early]: 'sent',
    })
    // the issue's record in the desk
    const page = await (await get(`/desk/newsletters/${id}`, staff.cookie)).text()
    const count = (k: string) => new RegExp(`data-count="${k}"[^>]*>([\\d,]+)<`).exec(page)?.[1]
    expect(count('sent')).toBe('249')
    expect(count('suppressed')).toBe('1')
    expect(count('failed')).toBe('0')
    expect(count('unsubscribed')).toBe('2')
    expect((await issueRow(id))!.status).toBe('sent')
  })

  it('lists failed e-mails with their error, and sends them again', async () => {
    const real = globalThis.fetch
    await env.DB.exec("UPDATE subscribers SET status = 'unsubscribed'")
    const [one] = await confirmed('nl-fail', 1)
    const id = await draft('Failing subject')
    const queue = { send: async () => {} } as unknown as Queue<NewsletterJob>
    const site: Bindings = {
      ...env,
      MAIL_PROVIDER: 'resend',
      RESEND_API_KEY: 're_test',
      RESEND_RATE_PER_SECOND: '1000',
      NEWSLETTER_QUEUE: queue,
    }
    const answers = [422]
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const request = new Request(input as RequestInfo, init)
      if (new URL(request.url).host !== 'api.resend.com') return real(input, init)
      const status = answers.shift()!
      return Response.json({ message: 'The `to` address is invalid' }, { status })
    })
    expect(await startIssue(site, id, staff.email)).toBe(true)
    expect((await sendStep(site, id)).next).toBeNull()
    expect((await issueRow(id))!.status).toBe('sent')
    const page = await (await get(`/desk/newsletters/${id}`, staff.cookie)).text()
    expect(page).toContain(one)
    expect(page).toContain('The `to` address is invalid')
    const retried = issueOf(
      await post(`/desk/newsletters/${id}`, { action: 'retry', tab: 'en' }, staff.cookie),
    )
    expect(retried.done).toBe('retry')
    // the desk queued a step: the site's own consumer sends it (SMTP, the local catcher)
    const mail = await delivered(one, /Failing subject/)
    expect(mail.html).toMatch(/<strong[^>]*>subscribers<\/strong>/)
    expect(await sentIssue(id)).toMatchObject({ status: 'sent' })
    const [row] = (await outboxRows(one)).filter((r) => r.kind === 'newsletter')
    expect(row).toMatchObject({ status: 'sent', provider: 'smtp', attempts: 1 })
  })
})

/** The hidden line mail clients show after the subject (layout.tsx's first element). */
const preheaderOf = (html: string) =>
  /<div style="display:none[^"]*">([^<]*)<\/div>/.exec(html)?.[1]

describe('what a subscriber reads', () => {
  // one issue in English and Arabic, sent to a reader of each, parsed as a mail client would
  const mail = {} as Record<'en' | 'ar', Email>
  beforeAll(async () => {
    await env.DB.exec("UPDATE subscribers SET status = 'unsubscribed'")
    const [enReader] = await confirmed('nl-read-en', 1, 'en')
    const [arReader] = await confirmed('nl-read-ar', 1, 'ar')
    const subject = `Our services ${crypto.randomUUID().slice(0, 6)}`
    const id = await draft(subject, 'Read more about [our services](/services).')
    issueOf(
      await post(
        `/desk/newsletters/${id}`,
        {
          version: '2',
          tab: 'ar',
          subject,
          body: 'اقرأ المزيد عن [خدماتنا](/services).',
          action: 'save',
        },
        staff.cookie,
      ),
    )
    expect(
      issueOf(
        await post(
          `/desk/newsletters/${id}`,
          {
            action: 'send',
            tab: 'en',
            version: '3',
            subject,
            body: 'Read more about [our services](/services).',
          },
          staff.cookie,
        ),
      ).done,
    ).toBe('send')
    mail.en = await delivered(enReader, new RegExp(subject), 20_000)
    mail.ar = await delivered(arReader, new RegExp(subject), 20_000)
  }, 60_000)

  it('gets a text part with every link written out in full', () => {
    expect(mail.en.text).toContain(
      'Read more about our services (https://example.com/services?lang=en).',
    )
    expect(mail.ar.text).toContain('اقرأ المزيد عن خدماتنا (https://example.com/services?lang=ar).')
    for (const m of Object.values(mail)) expect(m.text).not.toMatch(/\]\(|\(\/services/)
  })

  it('sees the text alone in the inbox preview line, no link targets', () => {
    expect(preheaderOf(mail.en.html!)).toBe('Read more about our services.')
    expect(preheaderOf(mail.ar.html!)).toBe('اقرأ المزيد عن خدماتنا.')
  })

  it('gives each element of the body its inline style as written (mail clients drop <style>)', () => {
    expect(mail.en.html).toContain(
      '<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#1e293b">Read more about ' +
        '<a href="https://example.com/services?lang=en" style="color:#1d3fb0;font-weight:600;' +
        'overflow-wrap:anywhere;word-break:break-word">our services</a>.</p>',
    )
  })

  it('follows links to the site in the e-mail’s language', () => {
    expect(mail.ar.html).toContain('href="https://example.com/services?lang=ar"')
    expect(mail.en.html).toContain('href="https://example.com/services?lang=en"')
    // the site's name and address in the header and footer too
    expect(mail.ar.html).not.toMatch(/href="https:\/\/example\.com\/?"/)
    expect(mail.ar.text).toContain('https://example.com/?lang=ar')
  })
})

describe('a test e-mail', () => {
  /** Sends the staff member a test of a new issue; the desk's notice and the mail, if any. */
  async function test(who: { email: string; cookie: string }, subject: string) {
    const id = await draft(subject)
    const res = issueOf(
      await post(
        `/desk/newsletters/${id}`,
        { version: '2', tab: 'en', subject, body: 'Body', action: 'test' },
        who.cookie,
      ),
    )
    const url = `/desk/newsletters/${id}?tab=en&done=${res.done}`
    const page = await (await get(url, who.cookie)).text()
    return { done: res.done, page, url }
  }

  it('unsubscribes nobody, and says in its footer that it is a test', async () => {
    const subject = `Unsubscribe test ${crypto.randomUUID().slice(0, 6)}`
    await test(staff, subject)
    const mail = await delivered(staff.email, new RegExp(subject))
    // no one-click button for the mailbox, and the footer's link unsubscribes nobody
    expect(mail.headers.find((h) => h.key === 'list-unsubscribe')).toBeUndefined()
    const link = new RegExp(`${en.mail.unsubscribe}: (\\S+)`).exec(mail.text!)![1]
    const res = await SELF.fetch(link, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(res.status).not.toBe(200)
    expect(await isSuppressed(env.DB, await emailHash(staff.email))).toBe(false)
    const why = en.mail.why_marketing.split('{{site}}')[0]
    expect(mail.text).not.toContain(why)
    expect(mail.html).not.toContain(why)
    expect(mail.text).toContain(en.mail.why_test.replace('{{site}}', 'example.com'))
    // the next test arrives
    const again = `Second test ${crypto.randomUUID().slice(0, 6)}`
    expect((await test(staff, again)).done).toBe('test')
    expect((await delivered(staff.email, new RegExp(again))).subject).toContain(again)
  })

  it('says so when the staff address is suppressed, rather than promise it', async () => {
    const other = await person({ staff: true, secondFactor: true })
    await env.DB.prepare(
      "INSERT INTO mail_suppressions (email_hash, reason) VALUES (?, 'unsubscribe')",
    )
      .bind(await emailHash(other.email))
      .run()
    const { done, page, url } = await test(other, 'Suppressed test')
    expect(done).toBe('test_suppressed')
    const notice = en.desk.newsletters.done.test_suppressed.replace('{{email}}', other.email)
    expect(page).toContain(notice.split('(')[0])
    expect(page).not.toContain(en.desk.newsletters.done.test.split('{{email}}')[1])
    expect(await outboxRows(other.email)).toEqual([])
    // in the staff member's own language too
    const arabic = await (await get(`${url}&lang=ar`, other.cookie)).text()
    expect(arabic).toContain(ar.desk.newsletters.done.test_suppressed.split('{{email}}')[0])
  })
})
