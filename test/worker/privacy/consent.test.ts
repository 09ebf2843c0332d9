import { env, SELF } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import ar from '../../../locales/ar.json'
import en from '../../../locales/en.json'
import { emailHash, sha256Hex } from '../../../worker/hash'
import { startIssue } from '../../../worker/newsletter/send'
import { issueWith, sentIssue } from '../newsletter'
import { outboxRows } from '../inbox'
import { delivered, settled, unique } from '../mail/helpers'
import { linkIn, postForm, postJson, SITE, subscriber, textOf, tokenOf } from './helpers'

// Double opt-in, the unsubscribe link of every marketing e-mail, and the newsletter's audience.

afterEach(() => vi.useRealTimers())

/** The token with one character of its ciphertext changed (not the tag's last, whose low bits
 * base64url decoders may ignore). */
const alter = (token: string) => {
  const parts = token.split('.')
  const c = parts[3][5]
  parts[3] = parts[3].slice(0, 5) + (c === 'A' ? 'B' : 'A') + parts[3].slice(6)
  return parts.join('.')
}

const suppressed = async (email: string) =>
  env.DB.prepare('SELECT reason FROM mail_suppressions WHERE email_hash = ?')
    .bind(await emailHash(email))
    .first<{ reason: string }>()

/** Signs up through the popup and follows the e-mail's confirmation link to its page. */
async function signUpAndOpen(email: string, lang = 'en') {
  const res = await postJson(
    '/api/email-signup',
    { name: 'Ada', email, source: 'website' },
    { 'Accept-Language': lang },
  )
  expect(await res.json()).toEqual({ alreadySubscribed: false, mailed: true })
  const { url } = await linkIn(email, /./, `${SITE}/subscribe/confirm?token=`)
  return url
}

const confirm = (token: string, ip = '203.0.113.7') =>
  postForm('/subscribe/confirm', { token }, { 'CF-Connecting-IP': ip })

describe('double opt-in', { timeout: 60_000 }, () => {
  it('keeps a sign-up pending until its link is followed, then confirms it with time and IP hash', async () => {
    const email = unique('optin')
    const url = await signUpAndOpen(email)
    expect(await subscriber(email)).toMatchObject({
      status: 'pending',
      consent_version: '2026-11-01',
      confirmed_at: null,
    })
    expect((await subscriber(email))!.consented_at).toMatch(/^\d{4}-\d\d-\d\dT/)

    // the link opens a page with one button; opening it changes nothing
    const page = await SELF.fetch(url)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(en.subscription.confirm_button)
    expect(html).toContain('action="/subscribe/confirm"')
    expect((await subscriber(email))!.status).toBe('pending')

    const res = await confirm(tokenOf(url))
    expect(res.status).toBe(200)
    expect(textOf(await res.text())).toContain(en.subscription.confirmed_title)
    const row = await subscriber(email)
    expect(row).toMatchObject({
      status: 'confirmed',
      confirm_nonce: null,
      confirm_ip_hash: await sha256Hex('203.0.113.7'),
    })
    expect(Date.now() - Date.parse(row!.confirmed_at!)).toBeLessThan(60_000)

    // the first marketing e-mail: the welcome, with its unsubscribe link and header
    const welcome = await delivered(email, new RegExp(en.mail.welcome_subject))
    expect(welcome.text).toContain(`${en.mail.unsubscribe}: ${SITE}/unsubscribe?token=`)
    const header = welcome.headers.find((h) => h.key === 'list-unsubscribe')?.value
    expect(header).toMatch(/^<https:\/\/example\.com\/unsubscribe\?token=.+&lang=en>$/)
    expect(welcome.headers.find((h) => h.key === 'list-unsubscribe-post')?.value).toBe(
      'List-Unsubscribe=One-Click',
    )
  })

  it('answers alreadySubscribed while pending or confirmed, and mails nothing more', async () => {
    const email = unique('again')
    const url = await signUpAndOpen(email)
    const again = () => postJson('/api/email-signup', { name: 'Ada', email, source: 'website' })
    expect(await (await again()).json()).toEqual({ alreadySubscribed: true, mailed: false })
    await confirm(tokenOf(url))
    expect(await (await again()).json()).toEqual({ alreadySubscribed: true, mailed: false })
    await settled(email)
    expect((await outboxRows(email)).map((r) => r.kind)).toEqual(['subscribe_confirm', 'welcome'])
  })

  it('refuses a link used twice, expired or altered with a clear page, never a 500', async () => {
    const email = unique('reuse')
    const url = await signUpAndOpen(email)
    const token = tokenOf(url)
    expect((await confirm(token)).status).toBe(200)

    const reused = await confirm(token)
    expect(reused.status).toBe(400)
    expect(textOf(await reused.text())).toContain(en.subscription.used_title)
    const reopened = await SELF.fetch(url)
    expect(reopened.status).toBe(400)
    expect(textOf(await reopened.text())).toContain(en.subscription.used_title)

    const altered = alter(token)
    const tampered = await confirm(altered)
    expect(tampered.status).toBe(400)
    expect(textOf(await tampered.text())).toContain(en.subscription.invalid_title)
    expect((await SELF.fetch(`${SITE}/subscribe/confirm?token=nonsense`)).status).toBe(400)
    expect((await SELF.fetch(`${SITE}/subscribe/confirm`)).status).toBe(400)

    // a link of another kind (unsubscribe) does not confirm anything
    const other = unique('expired')
    const otherUrl = await signUpAndOpen(other)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 8 * 24 * 3600_000)
    const expired = await confirm(tokenOf(otherUrl))
    vi.useRealTimers()
    expect(expired.status).toBe(400)
    expect(textOf(await expired.text())).toContain(en.subscription.expired_title)
    expect((await subscriber(other))!.status).toBe('pending')
  })

  it('asks to confirm in the guide e-mail while the sign-up waits, and not once confirmed', async () => {
    const email = unique('guide')
    await postJson('/api/guide-requests', { name: 'Ada', email, guide: 'social-media-growth-kit' })
    const { url } = await linkIn(email, /./, `${SITE}/subscribe/confirm?token=`)
    expect((await confirm(tokenOf(url))).status).toBe(200)
    await postJson('/api/guide-requests', { name: 'Ada', email, guide: 'conversion-masterclass' })
    await settled(email)
    const mails = await outboxRows(email)
    expect(mails.map((m) => m.kind)).toEqual(['guide', 'welcome', 'guide'])
    const second = await delivered(email, /Conversion/i)
    expect(second.text).not.toContain('/subscribe/confirm')
  })
})

describe('unsubscribing', { timeout: 60_000 }, () => {
  /** A confirmed subscriber and the unsubscribe link of their welcome e-mail. */
  async function confirmedWithLink(prefix: string, lang: 'en' | 'ar' = 'en') {
    const email = unique(prefix)
    const url = await signUpAndOpen(email, lang)
    await confirm(tokenOf(url))
    const welcome = lang === 'en' ? en : ar
    const { url: unsubscribe } = await linkIn(
      email,
      new RegExp(welcome.mail.welcome_subject),
      `${SITE}/unsubscribe?token=`,
    )
    return { email, unsubscribe }
  }

  it('by the page and its button, in the language of the e-mail', async () => {
    const { email, unsubscribe } = await confirmedWithLink('unsub', 'ar')
    const page = await SELF.fetch(unsubscribe)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('lang="ar" dir="rtl"')
    expect(html).toContain(ar.subscription.unsubscribe_button)
    expect((await subscriber(email))!.status).toBe('confirmed')

    const res = await postForm('/unsubscribe', { token: tokenOf(unsubscribe) })
    expect(res.status).toBe(200)
    expect(textOf(await res.text())).toContain(en.subscription.unsubscribed_title)
    expect(await subscriber(email)).toMatchObject({ status: 'unsubscribed' })
    expect(await suppressed(email)).toEqual({ reason: 'unsubscribe' })

    // twice: the same clear answer, nothing changes
    const twice = await postForm('/unsubscribe', { token: tokenOf(unsubscribe) })
    expect(twice.status).toBe(200)
    expect(textOf(await twice.text())).toContain(en.subscription.unsubscribed_title)
  })

  it("by a mail client's one-click POST (RFC 8058), from the provider's servers", async () => {
    const { email, unsubscribe } = await confirmedWithLink('oneclick')
    const res = await SELF.fetch(unsubscribe, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'https://mail.google.com',
        'CF-Connecting-IP': '192.0.2.200',
      },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(res.status).toBe(200)
    expect((await subscriber(email))!.status).toBe('unsubscribed')
    expect(await suppressed(email)).toEqual({ reason: 'unsubscribe' })
  })

  it('refuses an expired or altered link with a clear page, and unsubscribes nobody', async () => {
    const { email, unsubscribe } = await confirmedWithLink('badunsub')
    const token = tokenOf(unsubscribe)
    const altered = await postForm('/unsubscribe', {
      token: alter(token),
    })
    expect(altered.status).toBe(400)
    expect(textOf(await altered.text())).toContain(en.subscription.invalid_title)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 366 * 24 * 3600_000)
    const expired = await SELF.fetch(unsubscribe)
    vi.useRealTimers()
    expect(expired.status).toBe(400)
    expect(textOf(await expired.text())).toContain(en.subscription.expired_title)
    expect((await subscriber(email))!.status).toBe('confirmed')
    expect(await suppressed(email)).toBeNull()
  })

  it('lets a person sign up again: a new opt-in, mailed although suppressed, lifted on confirmation', async () => {
    const { email, unsubscribe } = await confirmedWithLink('comeback')
    await postForm('/unsubscribe', { token: tokenOf(unsubscribe) })
    const res = await postJson('/api/email-signup', { name: 'Ada', email, source: 'website' })
    expect(await res.json()).toEqual({ alreadySubscribed: false, mailed: true })
    expect((await subscriber(email))!.status).toBe('pending')
    await settled(email)
    const optins = (await outboxRows(email)).filter((r) => r.kind === 'subscribe_confirm')
    expect(optins.map((r) => r.status)).toEqual(['sent', 'sent'])
    const mails = await delivered(email, new RegExp(en.mail.optin_subject))
    const url = mails.text!.match(/https:\/\/example\.com\/subscribe\/confirm\?token=\S+/)![0]
    expect((await confirm(tokenOf(url))).status).toBe(200)
    expect((await subscriber(email))!.status).toBe('confirmed')
    expect(await suppressed(email)).toBeNull()
  })
})

describe('the newsletter', { timeout: 60_000 }, () => {
  it('goes to confirmed subscribers only, in their language; suppressed addresses are skipped', async () => {
    const pending = unique('nl-pending')
    await postJson('/api/email-signup', { name: 'P', email: pending, source: 'website' })
    const confirmedEn = unique('nl-en')
    await confirm(tokenOf(await signUpAndOpen(confirmedEn)))
    const confirmedAr = unique('nl-ar')
    await confirm(tokenOf(await signUpAndOpen(confirmedAr, 'ar')))
    const bounced = unique('nl-bounced')
    await confirm(tokenOf(await signUpAndOpen(bounced)))
    await env.DB.prepare("INSERT INTO mail_suppressions (email_hash, reason) VALUES (?, 'bounce')")
      .bind(await emailHash(bounced))
      .run()

    const issue = await issueWith({
      en: { subject: 'Five listing fixes', body: 'Fix your titles.' },
      ar: { subject: 'خمسة إصلاحات', body: 'أصلح العناوين.' },
    })
    // started once: the newsletter queue's consumer sends it; a second start does nothing
    expect(await startIssue(env, issue, 'test')).toBe(true)
    expect(await startIssue(env, issue, 'test')).toBe(false)

    const kinds = async (email: string) => {
      const rows = await settled(email)
      return rows.filter((r) => r.kind === 'newsletter').map((r) => [r.subject, r.status])
    }
    await sentIssue(issue)
    expect(await kinds(pending)).toEqual([])
    expect(await kinds(confirmedEn)).toEqual([['Five listing fixes', 'sent']])
    expect(await kinds(confirmedAr)).toEqual([['خمسة إصلاحات', 'sent']])
    expect(await kinds(bounced)).toEqual([['Five listing fixes', 'suppressed']])
    const mail = await delivered(confirmedAr, /خمسة/)
    expect(mail.text).toContain('أصلح العناوين.')
    expect(mail.text).toContain(`${SITE}/unsubscribe?token=`)
  }, 60_000)
})
