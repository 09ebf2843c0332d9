import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import ar from '../../locales/ar.json'
import de from '../../locales/de.json'
import en from '../../locales/en.json'
import es from '../../locales/es.json'
import fr from '../../locales/fr.json'
import pt from '../../locales/pt.json'

import { DESK_CONTENT_BYTES, MAX_REQUEST_BYTES } from '../../worker/middleware/request-size'
import { HTML_FORM_ROUTES } from '../routes'
import { withCaptchaFor, withTokenFor } from './challenge'

const LOCALES = { en, es, fr, de, pt, ar }

// Hostile and broken requests against every API and form route: none may answer 5xx, and
// a JSON route answers every refusal in JSON. The histogram of statuses is printed for the
// record (README: "Robustness").

/** JSON routes: islands, sendBeacon, and the auth provider's GoTrue API. */
const JSON_ROUTES = [
  '/api/email-signup',
  '/api/newsletter',
  '/api/guide-requests',
  '/api/contact',
  '/api/bookings',
  '/api/events',
  '/api/consent',
  '/auth/v1/signup',
  '/auth/v1/token?grant_type=password',
  '/auth/v1/token?grant_type=refresh_token',
  '/auth/v1/recover',
  '/auth/v1/otp',
  '/auth/v1/verify',
  '/auth/v1/resend',
  '/auth/v1/logout',
  '/auth/v1/factors',
  '/auth/v1/factors/00000000-0000-4000-8000-000000000000/challenge',
  '/auth/v1/factors/00000000-0000-4000-8000-000000000000/verify',
]

/** Form routes of the site: urlencoded posts from pages that also work without JavaScript. */
const FORM_ROUTES = HTML_FORM_ROUTES.filter(
  (path) => path.startsWith('/auth/') && !path.startsWith('/auth/v1/'),
)

const SITE = 'https://example.com'
const big = 'x'.repeat(40_000)
const huge = 'x'.repeat(1_100_000)

/** Bodies and headers a broken client or an attacker sends. */
const CASES: {
  name: string
  body?: string
  type?: string
  headers?: Record<string, string>
  /** sent as a stream: no Content-Length, as a chunked upload arrives */
  chunked?: boolean
  /** sent to these routes only */
  only?: string[]
}[] = [
  { name: 'malformed JSON', body: '{"email": "a@b.c",', type: 'application/json' },
  { name: 'JSON null', body: 'null', type: 'application/json' },
  { name: 'JSON array', body: '[1, 2, 3]', type: 'application/json' },
  { name: 'JSON string', body: '"hello"', type: 'application/json' },
  {
    name: 'nulls',
    body: '{"email": null, "name": null, "password": null}',
    type: 'application/json',
  },
  {
    name: 'wrong types',
    body: '{"email": 5, "name": [], "password": {}}',
    type: 'application/json',
  },
  { name: 'empty JSON', body: '', type: 'application/json' },
  { name: 'empty form', body: '', type: 'application/x-www-form-urlencoded' },
  { name: 'form garbage', body: '%%%&&&===', type: 'application/x-www-form-urlencoded' },
  { name: 'text/plain', body: 'email=a@b.c', type: 'text/plain' },
  { name: 'multipart', body: '--x\r\n\r\n', type: 'multipart/form-data; boundary=x' },
  { name: 'no content type', body: '{"a":1}' },
  { name: 'oversize JSON', body: `{"message":"${big}"}`, type: 'application/json' },
  { name: 'oversize form', body: `message=${big}`, type: 'application/x-www-form-urlencoded' },
  // one refusal for every route (middleware/request-size.ts): a JSON route, a form route and the
  // auth service's each get these, the rest are spared 1 MB apiece
  {
    name: 'over 1 MB',
    body: `{"message":"${huge}"}`,
    type: 'application/json',
    only: ['/api/contact', '/auth/sign-in', '/auth/v1/signup'],
  },
  {
    name: 'over 1 MB, chunked',
    body: `message=${huge}`,
    type: 'text/plain',
    chunked: true,
    only: ['/api/email-signup', '/auth/recover', '/auth/v1/otp'],
  },
  {
    name: 'cross-site',
    body: 'email=a%40b.c',
    type: 'application/x-www-form-urlencoded',
    headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
  },
  {
    name: 'bad bearer',
    body: '{}',
    type: 'application/json',
    headers: { Authorization: 'Bearer x.y.z' },
  },
]

/**
 * A JSON object body with the challenge token or the captcha the route wants, as an island or
 * supabase-js sends it: the hostile fields then reach what lies behind the challenge.
 */
function withChallenge(path: string, body: string | undefined) {
  if (!body?.startsWith('{')) return body
  try {
    return JSON.stringify(withCaptchaFor(path, withTokenFor(path, JSON.parse(body) as unknown)))
  } catch {
    return body
  }
}

let ip = 0
function send(path: string, c: (typeof CASES)[number]) {
  const headers: Record<string, string> = {
    'CF-Connecting-IP': `198.18.${Math.floor(++ip / 250)}.${ip % 250}`,
    ...c.headers,
  }
  if (c.type) headers['Content-Type'] = c.type
  const text = withChallenge(path, c.body)
  const body = c.chunked ? new Blob([text ?? '']).stream() : text
  return SELF.fetch(SITE + path, { method: 'POST', headers, body, redirect: 'manual' })
}

describe('fuzzing every API and form route', () => {
  // a hang guard: some 500 requests in a row, a few seconds since the Workers test plugin of
  // issue 56 (two minutes with vitest-pool-workers 0.15 on a busy two-core machine)
  it('never answers 5xx; JSON routes refuse in JSON', { timeout: 360_000 }, async () => {
    const statuses: Record<number, number> = {}
    const failures: string[] = []
    let tooLarge = 0
    for (const path of [...JSON_ROUTES, ...FORM_ROUTES]) {
      for (const c of CASES) {
        if (c.only && !c.only.includes(path)) continue
        const res = await send(path, c)
        statuses[res.status] = (statuses[res.status] ?? 0) + 1
        if (c.name.startsWith('over 1 MB') && res.status === 413) tooLarge++
        const type = res.headers.get('content-type') ?? ''
        const body = await res.text()
        if (res.status >= 500)
          failures.push(`${path} ${c.name}: ${res.status} ${body.slice(0, 80)}`)
        // a JSON route answers JSON, except to a plain form post (a page, for visitors without
        // JavaScript: the lead forms take both)
        else if (
          JSON_ROUTES.includes(path) &&
          res.status >= 400 &&
          !/urlencoded|multipart/.test(c.type ?? '') &&
          !type.includes('json')
        )
          failures.push(`${path} ${c.name}: ${res.status} not JSON (${type})`)
      }
    }
    console.log('fuzz statuses', JSON.stringify(statuses))
    expect(failures).toEqual([])
    // a body over 1 MB is refused, with a length or without (middleware/request-size.ts)
    expect(tooLarge).toBe(6)
  })
})

describe('a body too large for any form (issue 41)', () => {
  it(
    'is the site error page, 413, in the language of the cookie, with a length or chunked; the next request is answered',
    { timeout: 180_000 },
    async () => {
      const langs = ['en', 'es', 'fr', 'de', 'pt', 'ar'] as const
      const overForm = `message=${'x'.repeat(MAX_REQUEST_BYTES)}`
      const overDesk = `message=${'x'.repeat(DESK_CONTENT_BYTES)}`
      let n = 0
      for (const path of HTML_FORM_ROUTES)
        for (const chunked of [false, true]) {
          const i = n++ % langs.length
          // the desk's content forms take 5 MB (a picture and an article): more there
          const body = path.startsWith('/desk/content/') ? overDesk : overForm
          const res = await SELF.fetch(SITE + path, {
            method: 'POST',
            redirect: 'manual',
            headers: {
              'Content-Type': 'application/x-www-form-urlencoded',
              Cookie: `preferred-language=${langs[i]}`,
              Origin: SITE,
              'CF-Connecting-IP': `198.19.${Math.floor(n / 250)}.${n % 250}`,
            },
            body: chunked ? new Blob([body]).stream() : body,
          })
          const page = await res.text()
          const what = `${path} ${chunked ? 'chunked' : 'with a length'}`
          expect(res.status, what).toBe(413)
          expect(res.headers.get('Content-Type'), what).toMatch(/^text\/html/)
          expect(page, what).toContain(`<html lang="${langs[i]}"`)
          expect(page.includes(LOCALES[langs[i]].error_page.too_large.title), what).toBe(true)
          expect(page, what).toContain('<footer')
          const next = await SELF.fetch(`${SITE}/robots.txt`)
          expect(next.status, `after ${what}`).toBe(200)
          await next.text()
        }
    },
  )
})
