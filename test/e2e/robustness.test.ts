import { describe, expect, inject, it } from 'vitest'
import ar from '../../locales/ar.json'
import de from '../../locales/de.json'
import en from '../../locales/en.json'
import es from '../../locales/es.json'
import fr from '../../locales/fr.json'
import pt from '../../locales/pt.json'
import { HTML_FORM_ROUTES } from '../routes'
import { keepAlive, send } from '../../scripts/lib/http-probe.mjs'
import { query } from './d1'

// What used to stop the local server (`npm start`, which these tests run as it serves): bodies
// nobody read, on every kind of answer, and bodies too large to read. After each, the server
// still answers and a sign-up is still stored (README: "Robustness").

const base = inject('baseURL')
const LOCALES = { en, es, fr, de, pt, ar }
const json = { 'Content-Type': 'application/json' }
let visitor = 0
const signUp = (email: string) => ({
  path: '/api/email-signup',
  headers: { ...json, 'CF-Connecting-IP': `198.51.100.${++visitor % 250}` },
  // as the popup posts it, with its widget's token (the Turnstile stand-in's)
  body: JSON.stringify({
    name: 'Robust',
    email,
    source: 'website',
    challengeToken: 'XXXX.DUMMY.TOKEN.XXXX',
  }),
})
const unique = (tag: string) => `${tag}-${crypto.randomUUID().slice(0, 8)}@example.org`
const stored = async (email: string) =>
  (await query(`SELECT 1 FROM subscribers WHERE email = '${email}'`)).length === 1

/** The hashed script the home page loads: a static file, served before the app. */
async function anAsset() {
  const html = await (await fetch(`${base}/`)).text()
  return html.match(/src="(\/assets\/entry-[\w-]+\.js)"/)![1]
}

describe('request bodies never stop the server', () => {
  it('answers 12 bodies of each method on a page from memory, a page, an API and a file', async () => {
    // twice, so the isolate keeps the home page and answers it before the app
    for (let i = 0; i < 2; i++) await (await fetch(`${base}/`)).text()
    expect((await fetch(`${base}/`)).headers.get('x-render')).toBe('hit')
    const paths = ['/', '/contact', '/api/email-signup', await anAsset()]
    const answered: Record<string, (number | string)[]> = {}
    for (const method of ['GET', 'PUT', 'DELETE', 'OPTIONS'])
      for (const path of paths)
        for (let i = 0; i < 12; i++) {
          const { status } = await send(base, { method, path, body: 'hi' })
          ;(answered[`${method} ${path}`] ??= []).push(status)
        }
    const failed = Object.entries(answered).filter(([, s]) =>
      s.some((x) => typeof x !== 'number' || x >= 500),
    )
    expect(failed).toEqual([])
    const email = unique('bodies')
    expect((await send(base, signUp(email))).status).toBe(200)
    expect(await stored(email)).toBe(true)
  })

  it('refuses a body over 1 MB with 413, and answers the next request on that connection', async () => {
    const big = 'x'.repeat(1_100_000)
    const agent = keepAlive()
    try {
      for (const path of ['/api/email-signup', '/', '/contact'])
        for (const chunked of [false, true]) {
          const refused = await send(base, { path, headers: json, body: big, chunked, agent })
          expect(refused.status, `${path} chunked=${chunked}`).toBe(413)
          if (path.startsWith('/api/'))
            expect(JSON.parse(refused.text!)).toEqual({ error: en.errors.too_large })
          const email = unique('after-big')
          expect((await send(base, { ...signUp(email), agent })).status).toBe(200)
          expect(await stored(email)).toBe(true)
        }
    } finally {
      agent.destroy()
    }
  })

  it("answers a form over 1 MB on every HTML form route with the error page in the cookie's language, then the next request on that connection", async () => {
    const big = `message=${'x'.repeat(1_100_000)}`
    // over the desk's content forms' limit (DESK_CONTENT_BYTES, 7 MB: a cover and its cards)
    const overDesk = `message=${'x'.repeat(7.5 * 1024 * 1024)}`
    const langs = ['en', 'es', 'fr', 'de', 'pt', 'ar'] as const
    const agent = keepAlive()
    let n = 0
    try {
      for (const path of HTML_FORM_ROUTES)
        for (const chunked of [false, true]) {
          const lang = langs[n++ % langs.length]
          const what = `${path} chunked=${chunked}`
          const refused = await send(base, {
            path,
            headers: {
              'Content-Type': 'application/x-www-form-urlencoded',
              Cookie: `preferred-language=${lang}`,
            },
            body: path.startsWith('/desk/content/') ? overDesk : big,
            chunked,
            agent,
          })
          expect(refused.status, what).toBe(413)
          expect(refused.text, what).toContain(`<html lang="${lang}"`)
          expect(refused.text!.includes(LOCALES[lang].error_page.too_large.title), what).toBe(true)
          expect((await send(base, { method: 'GET', path: '/robots.txt', agent })).status).toBe(200)
        }
    } finally {
      agent.destroy()
    }
  })

  it('alternates refused and good posts on one connection: every good one stored', async () => {
    const agent = keepAlive()
    const good = signUp('x')
    const refusals = [
      {
        name: 'oversize',
        status: 413,
        ...good,
        body: JSON.stringify({ name: 'x'.repeat(20_000) }),
      },
      { name: 'text/plain', status: 415, ...good, headers: { 'Content-Type': 'text/plain' } },
      {
        name: 'cross-site',
        status: 403,
        ...good,
        headers: { ...json, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      },
      { name: 'malformed JSON', status: 400, ...good, body: '{"name":' },
    ]
    try {
      for (const { name, status, ...bad } of refusals) {
        expect((await send(base, { ...bad, agent })).status, name).toBe(status)
        const email = unique('alternate')
        expect((await send(base, { ...signUp(email), agent })).status, `after ${name}`).toBe(200)
        expect(await stored(email)).toBe(true)
      }
    } finally {
      agent.destroy()
    }
  })
})
