import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, inject, it } from 'vitest'
import en from '../../locales/en.json'
import { nextRun, startCrons } from '../../scripts/lib/crons.mjs'
import { TRACKERS_STATE } from '../setup/server'
import { query } from './d1'
import { mailTo } from './inbox'

// The local schedule is the production one: `npm start` fires wrangler.toml's crons on their
// times through the Worker's scheduled handler. Run here on the second test server (the one with
// trackers: no other test reads its subscribers' mail), with the clock sped up.

const site = inject('trackersURL')
const run = promisify(execFile)
const email = `crons-${crypto.randomUUID().slice(0, 8)}@example.org`

describe('local crons', () => {
  it('times the crons as Cloudflare does, in UTC', () => {
    const at = new Date('2026-11-26T06:58:10Z')
    expect(nextRun('*/5 * * * *', at).toISOString()).toBe('2026-11-26T07:00:00.000Z')
    expect(nextRun('0 7 * * *', at).toISOString()).toBe('2026-11-26T07:00:00.000Z')
    expect(nextRun('0 7 * * *', new Date('2026-11-26T07:00:00Z')).toISOString()).toBe(
      '2026-11-27T07:00:00.000Z',
    )
  })

  it('delivers a newsletter stored with npm run newsletter, with no manual step', async () => {
    // a confirmed subscriber of that site
    const signUp = await fetch(`${site}/api/newsletter`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': '198.51.100.200' },
      // the token the widget hands the footer box (the local Turnstile stand-in's)
      body: JSON.stringify({ email, challengeToken: 'XXXX.DUMMY.TOKEN.XXXX' }),
    })
    expect(signUp.status).toBe(200)
    await query(`UPDATE subscribers SET status = 'confirmed' WHERE email = '${email}'`, site)

    const subject = `Cron issue ${crypto.randomUUID().slice(0, 8)}`
    const dir = mkdtempSync(join(tmpdir(), 'newsletter-'))
    const file = join(dir, 'issue.json')
    writeFileSync(file, JSON.stringify({ en: { subject, body: 'Sent by the **cron**.' } }))
    const stored = await run('node', [
      'scripts/newsletter.mjs',
      file,
      '--persist-to',
      TRACKERS_STATE,
      '--site',
      site,
    ]).finally(() => rmSync(dir, { recursive: true, force: true }))
    expect(stored.stdout).toMatch(/scheduled for \d+ confirmed subscribers/)

    // wrangler.toml's crons on a clock 120 times faster: */5 comes within 2.5 s
    const fired: string[] = []
    const sped = startCrons({
      baseURL: site,
      speed: 120,
      onRun: (cron, _at, { ok }) => fired.push(`${cron} ${ok}`),
    })
    try {
      const mail = await mailTo(email, new RegExp(subject), 30_000)
      // the text part as a text-only client shows it: the Markdown's emphasis gone
      expect(mail.text).toContain('Sent by the cron.')
      expect(mail.text).not.toContain('**')
      expect(mail.html).toMatch(/<strong[^>]*>cron<\/strong>/)
      expect(fired).toContain('*/5 * * * * true')
    } finally {
      sped.stop()
    }
  })

  it('sends the agency its digest on npm run cron -- daily', async () => {
    const { stdout } = await run('node', ['scripts/cron.mjs', 'daily'], {
      env: { ...process.env, BASE_URL: site },
    })
    expect(stdout).toContain('ran 0 7 * * *')
    const subject = new RegExp(en.mail.digest_subject.replace(/\{\{\w+\}\}/g, '\\d+ [\\w ]+'))
    const digest = await mailTo('hello@growthagency.example', subject)
    expect(digest.text).toContain(email)
  })
})
