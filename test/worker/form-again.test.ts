import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import ar from '../../locales/ar.json'
import en from '../../locales/en.json'
import app from '../../worker/index'
import { DUMMY_TOKEN, TOKEN_FIELD } from './challenge'
import { outboxRows } from './inbox'
import { textOf } from './privacy/helpers'

/**
 * Issue 57, part 1: a form posted without the challenge's token (pressed before the page's
 * scripts came, or without JavaScript) is answered with the form again, as it was sent, carrying
 * the challenge and marked to send itself once the page's scripts run; what it then sends
 * completes the first post: the row it added is taken over, not doubled, and a repeat (a second
 * tap, a reload, the way back) sends no second e-mail. The browser's side:
 * test/e2e/pressed-early.test.ts.
 */

const SITE = 'https://example.com'
let n = 0
const nextIp = () => `203.0.113.${(++n % 250) + 1}`
const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.org`

/** A form as the browser posts it from the site's page: with the widget's token, or without. */
async function postForm(
  path: string,
  fields: Record<string, string>,
  { token, lang }: { token?: boolean; lang?: string } = {},
) {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(SITE + path, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: SITE,
        'Sec-Fetch-Site': 'same-origin',
        'CF-Connecting-IP': nextIp(),
        ...(lang ? { 'Accept-Language': lang } : {}),
      },
      body: new URLSearchParams(token ? { ...fields, [TOKEN_FIELD]: DUMMY_TOKEN } : fields),
    }),
    env,
    ctx,
  )
  await waitOnExecutionContext(ctx)
  return res
}

async function get(path: string) {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(SITE + path), env, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

const rows = async (sql: string, ...params: unknown[]) =>
  (
    await env.DB.prepare(sql)
      .bind(...params)
      .all()
  ).results

/** The form the answer gives back: its opening tag, and the value of each of its fields. */
function formOf(html: string, action: string) {
  const form = html.match(new RegExp(`<form[^>]*action="${action}"[\\s\\S]*?</form>`))?.[0] ?? ''
  const fields: Record<string, string> = {}
  for (const input of form.match(/<input[^>]*>/g) ?? []) {
    const name = input.match(/name="([^"]*)"/)?.[1]
    if (name) fields[name] = input.match(/value="([^"]*)"/)?.[1] ?? ''
  }
  return { tag: form.match(/<form[^>]*>/)?.[0] ?? '', fields }
}

/** What the page's challenge script and frame need: Turnstile's origin in the CSP. */
const allowsWidget = (res: Response) =>
  res.headers.get('Content-Security-Policy')!.includes(new URL(env.TURNSTILE_SCRIPT_URL!).origin)

describe('the answer to a lead form sent without a token is the form again, which completes it', () => {
  for (const [lang, t] of [
    ['en', en],
    ['ar', ar],
  ] as const)
    it(`the newsletter box: one row, one e-mail, however often it is sent again (${lang})`, async () => {
      const email = unique('again-news')
      const first = await postForm('/api/newsletter', { email, website: '' }, { lang })
      expect(first.status).toBe(200)
      expect(first.headers.get('Cache-Control')).toBe('no-store')
      expect(allowsWidget(first)).toBe(true)
      const html = await first.text()
      // said without JavaScript; where it runs, the note says it goes on by itself
      expect(textOf(html)).toContain(t.notices.newsletter_unchecked_text)
      expect(html).toContain(`data-resume-note="${t.forms.resume_text}"`)
      const form = formOf(html, '/api/newsletter')
      expect(form.tag).toContain('data-challenge="newsletter"')
      expect(form.tag).toContain('data-challenge-resume=""')
      expect(form.fields).toEqual({ email })
      // the script that sends it once the page's scripts have run, allowed by the page's nonce
      expect(html).toMatch(
        /<script nonce="[^"]+">\(\(\)=>\{const d=document,f=d\.querySelector\('form\[data-challenge-resume\]'\)/,
      )
      expect(await rows('SELECT unchecked FROM subscribers WHERE email = ?', email)).toEqual([
        { unchecked: 1 },
      ])

      // the same form, sent by the page with its token: the row is taken over, the e-mail goes
      const done = await postForm('/api/newsletter', form.fields, { token: true, lang })
      expect(textOf(await done.text())).toContain(t.notices.newsletter_title)
      // a reload of the first answer, and the form sent again: nothing more
      await postForm('/api/newsletter', { email, website: '' }, { lang })
      await postForm('/api/newsletter', form.fields, { token: true, lang })
      expect(await rows('SELECT unchecked FROM subscribers WHERE email = ?', email)).toEqual([
        { unchecked: 0 },
      ])
      expect((await outboxRows(email)).map((r) => r.kind)).toEqual(['subscribe_confirm'])
    })

  it('the welcome popup’s form, posted by the browser before its script came', async () => {
    const email = unique('again-popup')
    const first = await postForm('/api/email-signup', { name: 'Ada', email, website: '' })
    expect(first.status).toBe(200)
    expect(allowsWidget(first)).toBe(true)
    const form = formOf(await first.text(), '/api/email-signup')
    expect(form.tag).toContain('data-challenge="welcome-popup"')
    expect(form.fields).toEqual({ name: 'Ada', email })
    const done = await postForm('/api/email-signup', form.fields, { token: true })
    expect(done.status).toBe(200)
    expect(textOf(await done.text())).toContain(en.notices.success_text)
    expect(
      await rows('SELECT signup_form, unchecked FROM subscribers WHERE email = ?', email),
    ).toEqual([{ signup_form: 'welcome_popup', unchecked: 0 }])
    expect((await outboxRows(email)).map((r) => r.kind)).toEqual(['subscribe_confirm'])
  })

  it('the free guide: the file at once, then one request and one e-mail, whatever is sent again', async () => {
    const email = unique('again-guide')
    const fields = { name: 'Ada', email, guide: 'social-media-growth-kit', website: '' }
    const first = await postForm('/api/guide-requests', fields)
    expect(first.status).toBe(200)
    expect(allowsWidget(first)).toBe(true)
    const html = await first.text()
    expect(html).toMatch(/href="\/guides\/social-media-growth-kit[^"]*"/)
    const form = formOf(html, '/api/guide-requests')
    expect(form.tag).toContain('data-challenge="guide"')
    expect(form.fields).toEqual({ guide: 'social-media-growth-kit', name: 'Ada', email })
    // a reload of that answer adds nothing
    await postForm('/api/guide-requests', fields)
    expect(await rows('SELECT unchecked FROM guide_requests WHERE email = ?', email)).toEqual([
      { unchecked: 1 },
    ])

    const done = await postForm('/api/guide-requests', form.fields, { token: true })
    const sent = textOf(await done.text())
    expect(sent).toContain(en.notices.download_text.split('}}').at(-1)!.trim())
    // sent again with a token (the way back to the first answer, a second tap)
    const again = await postForm('/api/guide-requests', form.fields, { token: true })
    expect(textOf(await again.text())).toContain(
      en.notices.download_text.split('}}').at(-1)!.trim(),
    )
    expect(await rows('SELECT name, unchecked FROM guide_requests WHERE email = ?', email)).toEqual(
      [{ name: 'Ada', unchecked: 0 }],
    )
    expect((await outboxRows(email)).map((r) => r.kind)).toEqual(['guide'])
    // another guide is another request, e-mailed as ever
    await postForm(
      '/api/guide-requests',
      { ...form.fields, guide: 'conversion-masterclass' },
      { token: true },
    )
    expect(
      await rows('SELECT guide FROM guide_requests WHERE email = ? ORDER BY id', email),
    ).toEqual([{ guide: 'social-media-growth-kit' }, { guide: 'conversion-masterclass' }])
    expect((await outboxRows(email)).map((r) => r.kind)).toEqual(['guide', 'guide'])
  })

  it('a guide asked for with the challenge and no post before it: one row, as ever', async () => {
    const email = unique('plain-guide')
    const fields = { name: 'Ada', email, guide: 'conversion-masterclass', website: '' }
    await postForm('/api/guide-requests', fields, { token: true })
    expect(await rows('SELECT unchecked FROM guide_requests WHERE email = ?', email)).toEqual([
      { unchecked: 0 },
    ])
    expect((await outboxRows(email)).map((r) => r.kind)).toEqual(['guide'])
  })
})

describe('the forms the browser posts itself come back to send themselves', () => {
  it('the sign-up: answered with its form, the password as typed, and no account yet', async () => {
    const email = unique('again-signup')
    const res = await postForm('/auth/sign-up', { email, password: 'correct horse 1' })
    expect(res.status).toBe(200)
    expect(res.headers.get('Cache-Control')).toBe('no-store')
    const html = await res.text()
    expect(textOf(html)).toContain(en.auth.errors.challenge_needs_script)
    const form = formOf(html, '/auth/sign-up')
    expect(form.tag).toContain('data-challenge="sign-up"')
    expect(form.tag).toContain('data-challenge-resume="error"')
    expect(form.fields).toEqual({ email, password: 'correct horse 1' })
    expect(await rows('SELECT id FROM auth_users WHERE email = ?', email)).toEqual([])
  })

  for (const [path, mode, action] of [
    ['/auth/magic-link', 'magic', 'magic-link'],
    ['/auth/recover', 'forgot', 'recover'],
  ] as const)
    it(`${path}: back to its form, which sends itself and leaves the address`, async () => {
      const email = unique('again-auth')
      const res = await postForm(path, { email })
      expect(res.status).toBe(303)
      const to = res.headers.get('Location')!
      expect(Object.fromEntries(new URL(to, SITE).searchParams)).toEqual({
        mode,
        error: 'challenge_needs_script',
        email,
      })
      const page = await get(to)
      const html = await page.text()
      expect(textOf(html)).toContain(en.auth.errors.challenge_needs_script)
      const form = formOf(html, path)
      expect(form.tag).toContain(`data-challenge="${action}"`)
      // `error` leaves the address before the form sends itself: a reload sends nothing again
      expect(form.tag).toContain('data-challenge-resume="error"')
      expect(form.fields).toEqual({ email })
    })

  it('the data request: back to its form as typed, which sends itself', async () => {
    const email = unique('again-data')
    const res = await postForm('/privacy/request', { email, action: 'erase' })
    expect(res.status).toBe(303)
    const page = await get(res.headers.get('Location')!)
    const html = await page.text()
    expect(textOf(html)).toContain(en.privacy_request.needs_script)
    const form = formOf(html, '/privacy/request')
    expect(form.tag).toContain('data-challenge="data-request"')
    expect(form.tag).toContain('data-challenge-resume="error"')
    expect(form.fields.email).toBe(email)
    expect(html).toMatch(/<input[^>]*checked=""[^>]*value="erase"/)
    // said once, as the note, not as an error of the address
    expect(html).not.toContain('aria-invalid="true"')
    expect(await outboxRows(email)).toEqual([])
  })
})
