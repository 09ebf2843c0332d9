import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from '../../scripts/lib/server.mjs'
import {
  DUMMY_SECRET,
  DUMMY_SITE_KEY,
  DUMMY_TOKEN,
  FAILING_SECRET,
  SPENT_SECRET,
  startTurnstileStandin,
  type StandinVerification,
  type TurnstileStandin,
} from '../../scripts/lib/turnstile-standin.mjs'

// The local Turnstile stand-in (scripts/lib/turnstile-standin.mjs) that `npm start` and the tests
// point the site at: its siteverify answers as Cloudflare's test secrets do, plus the scripted
// tokens; its widget script, in Chromium, on a page with a strict CSP, as Cloudflare's test site
// keys behave.

let standin: TurnstileStandin
beforeAll(async () => {
  standin = await startTurnstileStandin()
})
afterAll(() => standin?.stop())

type Answer = {
  success: boolean
  'error-codes': string[]
  challenge_ts?: string
  hostname?: string
  action?: string
  cdata?: string
  metadata?: { interactive: boolean }
}

/** One siteverify call, as a form (or JSON); its status and parsed answer. */
async function siteverify(
  fields: Record<string, string>,
  { json = false, signal }: { json?: boolean; signal?: AbortSignal } = {},
) {
  const res = await fetch(standin.verifyURL, {
    method: 'POST',
    headers: { 'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded' },
    body: json ? JSON.stringify(fields) : new URLSearchParams(fields),
    signal,
  })
  return { status: res.status, answer: (await res.json()) as Answer }
}

describe('siteverify', () => {
  it('passes any token with the dummy secret, answering as Cloudflare’s test key', async () => {
    for (const response of [DUMMY_TOKEN, 'any.token.at.all'])
      for (const json of [false, true]) {
        const { status, answer } = await siteverify({ secret: DUMMY_SECRET, response }, { json })
        expect(status).toBe(200)
        expect(answer).toEqual({
          success: true,
          'error-codes': [],
          challenge_ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          hostname: 'example.com',
          action: '',
          cdata: '',
          metadata: { interactive: false },
        })
      }
    // a Worker's FormData is multipart, as Cloudflare's own example sends it
    const form = new FormData()
    form.append('secret', DUMMY_SECRET)
    form.append('response', DUMMY_TOKEN)
    const res = await fetch(standin.verifyURL, { method: 'POST', body: form })
    expect(((await res.json()) as Answer).success).toBe(true)
  })

  it('fails every token with the failing secret; says “spent” with the spent secret', async () => {
    expect((await siteverify({ secret: FAILING_SECRET, response: DUMMY_TOKEN })).answer).toEqual({
      success: false,
      'error-codes': ['invalid-input-response'],
    })
    expect((await siteverify({ secret: SPENT_SECRET, response: DUMMY_TOKEN })).answer).toEqual({
      success: false,
      'error-codes': ['timeout-or-duplicate'],
    })
  })

  it('refuses a missing or unknown secret and a missing token', async () => {
    const codes = async (fields: Record<string, string>, json = false) =>
      (await siteverify(fields, { json })).answer['error-codes']
    expect(await codes({ response: DUMMY_TOKEN })).toEqual(['missing-input-secret'])
    expect(await codes({ secret: '', response: DUMMY_TOKEN }, true)).toEqual([
      'missing-input-secret',
    ])
    expect(await codes({ secret: '0x4AAAAAAAreal-secret', response: DUMMY_TOKEN })).toEqual([
      'invalid-input-secret',
    ])
    expect(await codes({ secret: DUMMY_SECRET })).toEqual(['missing-input-response'])
    expect(await codes({ secret: DUMMY_SECRET, response: '' }, true)).toEqual([
      'missing-input-response',
    ])
  })

  it('refuses a body over 64 KB, a body it cannot read, and anything but POST', async () => {
    const big = await fetch(standin.verifyURL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `secret=${DUMMY_SECRET}&response=${'x'.repeat(70 * 1024)}`,
    })
    expect(big.ok).toBe(false)
    expect(await big.json()).toEqual({ success: false, 'error-codes': ['bad-request'] })
    const broken = await fetch(standin.verifyURL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"secret":',
    })
    expect(await broken.json()).toEqual({ success: false, 'error-codes': ['bad-request'] })
    const get = await fetch(`${standin.verifyURL}?secret=${DUMMY_SECRET}&response=x`)
    expect(get.status).toBe(405)
    expect(await get.json()).toEqual({ success: false, 'error-codes': ['bad-request'] })
  })

  it.each([
    ['standin-case:invalid', { success: false, 'error-codes': ['invalid-input-response'] }],
    ['standin-case:duplicate', { success: false, 'error-codes': ['timeout-or-duplicate'] }],
    ['standin-case:hostname', { success: true, hostname: 'evil.example', action: '' }],
    ['standin-case:action', { success: true, hostname: 'example.com', action: 'another-form' }],
  ])('scripts one misbehaving verification with the token %s', async (response, expected) => {
    const { status, answer } = await siteverify({ secret: DUMMY_SECRET, response })
    expect(status).toBe(200)
    expect(answer).toMatchObject(expected)
  })

  it('answers standin-case:not-json with an HTML error page', async () => {
    const res = await fetch(standin.verifyURL, {
      method: 'POST',
      body: new URLSearchParams({ secret: DUMMY_SECRET, response: 'standin-case:not-json' }),
    })
    expect(res.status).toBe(502)
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/)
    await expect(res.clone().json()).rejects.toThrow()
    expect(await res.text()).toMatch(/<h1>502 Bad Gateway<\/h1>/)
  })

  it('holds the answer to standin-case:timeout past the site’s limit, until the client gives up', async () => {
    const started = Date.now()
    const held = siteverify(
      { secret: DUMMY_SECRET, response: 'standin-case:timeout' },
      { signal: AbortSignal.timeout(3200) },
    )
    await expect(held).rejects.toThrow(/aborted|timeout/i)
    expect(Date.now() - started).toBeGreaterThanOrEqual(3100)
    // and it still answers the next call at once
    expect((await siteverify({ secret: DUMMY_SECRET, response: DUMMY_TOKEN })).answer.success).toBe(
      true,
    )
  })

  it('answers a retry with the same idempotency key and token the same, within 5 minutes', async () => {
    const key = crypto.randomUUID()
    const first = await siteverify({ secret: DUMMY_SECRET, response: 'a', idempotency_key: key })
    await new Promise((r) => setTimeout(r, 10))
    const retry = await siteverify({ secret: DUMMY_SECRET, response: 'a', idempotency_key: key })
    expect(retry.answer).toEqual(first.answer)
    // another key, or another token under the key: a verification of its own
    const other = await siteverify({
      secret: DUMMY_SECRET,
      response: 'a',
      idempotency_key: crypto.randomUUID(),
    })
    expect(other.answer.challenge_ts).not.toBe(first.answer.challenge_ts)
    const otherToken = await siteverify({
      secret: DUMMY_SECRET,
      response: 'standin-case:invalid',
      idempotency_key: key,
    })
    expect(otherToken.answer.success).toBe(false)
  })

  it('lists the verifications it received, with the secret’s prefix only', async () => {
    const remoteip = '203.0.113.77'
    const key = crypto.randomUUID()
    await siteverify({ secret: DUMMY_SECRET, response: 'listed', remoteip, idempotency_key: key })
    const all = (await (
      await fetch(`${standin.url}/__standin/verifications`)
    ).json()) as StandinVerification[]
    expect(JSON.stringify(all)).not.toContain(DUMMY_SECRET)
    const mine = (await (
      await fetch(`${standin.url}/__standin/verifications?remoteip=${remoteip}`)
    ).json()) as StandinVerification[]
    expect(mine).toEqual([
      { secret: '1x', token: 'listed', remoteip, idempotency_key: key, at: expect.any(String) },
    ])
  })
})

const NONCE = 'c3RhbmRpbi10ZXN0'
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
)

declare global {
  interface Window {
    turnstile: {
      render(container: string | Element, params: Record<string, unknown>): string | undefined
      execute(container: string | Element, params?: Record<string, unknown>): void
      reset(id?: string): void
      remove(id?: string): void
      getResponse(id?: string): string | undefined
      isExpired(id?: string): boolean
    }
    __TURNSTILE_STANDIN__?: { token?: string }
    standin: { loaded: boolean; events: unknown[][]; violations: string[] }
  }
}

describe('the widget script, in Chromium', () => {
  let browser: Browser
  let site: Server
  let origin: string
  beforeAll(async () => {
    // a form page with a strict CSP: scripts by nonce (and the stand-in's origin), styles by
    // nonce only, so a style attribute the widget wrote would be refused (and reported)
    const page = (explicit: boolean) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Contact</title>
<script nonce="${NONCE}">
  window.standin = { loaded: false, events: [], violations: [] }
  document.addEventListener('securitypolicyviolation', (e) => standin.violations.push(e.violatedDirective))
  window.onTurnstileLoad = () => { standin.loaded = true }
  window.onImplicit = (token) => standin.events.push(['implicit', token])
</script>
<script nonce="${NONCE}" src="${standin.scriptURL}?${explicit ? 'render=explicit&' : ''}onload=onTurnstileLoad" async defer></script>
</head><body><main><h1>Contact</h1>
<form><label>E-mail <input name="email" type="email"></label>
${explicit ? '<div id="box"></div>' : `<div class="cf-turnstile" data-sitekey="${DUMMY_SITE_KEY}" data-callback="onImplicit"></div>`}
<button type="submit">Send</button></form></main></body></html>`
    site = createServer((req, res) => {
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${NONCE}' ${standin.url}; style-src 'nonce-${NONCE}'`,
      })
      res.end(page(req.url !== '/implicit'))
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
    browser = await chromium.launch({ executablePath: TEST_BROWSER_PATH, args: CHROMIUM_ARGS })
  })
  afterAll(async () => {
    await browser?.close()
    site?.close()
  })

  /** A fresh page, once the script called its onload; its errors are collected. */
  async function open(path = '/') {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    await page.goto(origin + path)
    await page.waitForFunction(() => window.standin.loaded)
    return Object.assign(page, { errors })
  }
  const events = (page: Page) => page.evaluate(() => window.standin.events)
  const render = (page: Page, params: Record<string, unknown>) =>
    page.evaluate((params) => {
      const push =
        (name: string) =>
        (...args: unknown[]) =>
          window.standin.events.push([name, ...args])
      return window.turnstile.render('#box', {
        ...params,
        callback: push('callback'),
        'error-callback': push('error'),
        'expired-callback': push('expired'),
        'before-interactive-callback': push('before-interactive'),
        'after-interactive-callback': push('after-interactive'),
      })
    }, params)

  it('runs on execute(): the dummy token in the callback and in the hidden input', async () => {
    const page = await open()
    // the widget's timers on the page's clock, which the test moves
    await page.clock.install()
    const id = await render(page, {
      sitekey: DUMMY_SITE_KEY,
      execution: 'execute',
      appearance: 'execute',
    })
    expect(id).toEqual(expect.any(String))
    const input = page.locator('#box input[type=hidden][name="cf-turnstile-response"]')
    // a minute of the page's time, far past the check's 200 ms: nothing ran, nothing shows
    // before execute()
    await page.clock.runFor(60_000)
    expect(await events(page)).toEqual([])
    expect(await input.inputValue()).toBe('')
    await expect(page.getByRole('group').isVisible()).resolves.toBe(false)
    await page.evaluate((id) => window.turnstile.execute(id!), id)
    await page.waitForFunction(() => window.standin.events.length > 0)
    expect(await events(page)).toEqual([['callback', DUMMY_TOKEN]])
    expect(await input.inputValue()).toBe(DUMMY_TOKEN)
    expect(await page.evaluate((id) => window.turnstile.getResponse(id!), id)).toBe(DUMMY_TOKEN)
    expect(await page.evaluate(() => window.turnstile.isExpired())).toBe(false)

    // a test's scripted token, after a reset
    await page.evaluate(() => {
      window.__TURNSTILE_STANDIN__ = { token: 'standin-case:invalid' }
      window.turnstile.reset()
      window.turnstile.execute('#box')
    })
    expect(await input.inputValue()).toBe('')
    await page.waitForFunction(() => window.standin.events.length > 1)
    expect((await events(page))[1]).toEqual(['callback', 'standin-case:invalid'])
    await page.evaluate(() => window.turnstile.remove())
    expect(await page.locator('#box *').count()).toBe(0)
    expect(await page.evaluate(() => window.standin.violations)).toEqual([])
    expect(page.errors).toEqual([])
    await page.close()
  })

  it('lets a token expire after 300 s: expired-callback, the token cleared', async () => {
    const page = await open()
    await page.clock.install()
    await render(page, { sitekey: '1x00000000000000000000BB', appearance: 'interaction-only' })
    await page.clock.runFor(500)
    expect(await events(page)).toEqual([['callback', DUMMY_TOKEN]])
    await page.clock.runFor(299_000)
    expect(await page.evaluate(() => window.turnstile.isExpired())).toBe(false)
    await page.clock.runFor(1_000)
    expect((await events(page))[1]).toEqual(['expired'])
    expect(await page.evaluate(() => window.turnstile.isExpired())).toBe(true)
    expect(await page.evaluate(() => window.turnstile.getResponse())).toBeUndefined()
    expect(await page.locator('#box input[type=hidden]').inputValue()).toBe('')
    // invisible throughout: nothing asked for an interaction
    expect(await page.getByRole('group').isVisible()).toBe(false)
    await page.close()
  })

  it('calls error-callback for the failing keys and an unknown one', async () => {
    const page = await open()
    await render(page, { sitekey: '2x00000000000000000000AB' })
    await page.waitForFunction(() => window.standin.events.length > 0)
    expect(await events(page)).toEqual([['error', '600010']])
    expect(await page.getByRole('status').textContent()).toBe('Verification failed')
    await page.evaluate(() => window.turnstile.remove())
    await render(page, { sitekey: 'not-a-site-key' })
    await page.waitForFunction(() => window.standin.events.length > 1)
    expect((await events(page))[1]).toEqual(['error', '110100'])
    expect(page.errors).toEqual([])
    await page.close()
  })

  it('renders the page’s .cf-turnstile elements without render=explicit', async () => {
    const page = await open('/implicit')
    await page.waitForFunction(() => window.standin.events.length > 0)
    expect(await events(page)).toEqual([['implicit', DUMMY_TOKEN]])
    expect(await page.locator('.cf-turnstile input[type=hidden]').inputValue()).toBe(DUMMY_TOKEN)
    expect(await page.getByRole('status').textContent()).toBe('Success')
    await page.close()
  })

  it('asks for a button press with the interactive key, from the keyboard, axe-clean', async () => {
    const page = await open()
    await render(page, { sitekey: '3x00000000000000000000FF', appearance: 'interaction-only' })
    const button = page.getByRole('button', { name: 'Verify you are human' })
    await button.waitFor({ state: 'visible' })
    expect(await events(page)).toEqual([['before-interactive']])
    expect(await page.locator('#box input[type=hidden]').inputValue()).toBe('')
    // the widget and its button, audited as the visitor sees them (axe run through the
    // debugger, which the page's CSP does not govern)
    await page.evaluate(axeSource)
    const serious = await page.evaluate(async () => {
      // @ts-expect-error injected above
      const result = await window.axe.run(document, {
        runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
        resultTypes: ['violations'],
      })
      return (result.violations as { id: string; impact: string }[])
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id)
    })
    expect(serious).toEqual([])
    // from the e-mail field, Tab reaches the button, with a focus ring; Enter presses it
    await page.getByLabel('E-mail').focus()
    await page.keyboard.press('Tab')
    expect(await button.evaluate((b) => b === document.activeElement)).toBe(true)
    expect(await button.evaluate((b) => getComputedStyle(b).outlineStyle)).not.toBe('none')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => window.standin.events.some(([name]) => name === 'callback'))
    expect(await events(page)).toEqual([
      ['before-interactive'],
      ['after-interactive'],
      ['callback', DUMMY_TOKEN],
    ])
    expect(await page.getByRole('status').textContent()).toBe('Success')
    expect(await page.locator('#box input[type=hidden]').inputValue()).toBe(DUMMY_TOKEN)
    expect(await page.evaluate(() => window.standin.violations)).toEqual([])
    expect(page.errors).toEqual([])
    await page.close()
  })
})
