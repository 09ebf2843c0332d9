import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import type { Bindings } from '../../../worker/bindings'
import app from '../../../worker/index'
import { delivered } from '../mail/helpers'
import { SITE } from '../auth/helpers'
import { DUMMY_TOKEN, TOKEN_FIELD, withTokenFor } from '../challenge'

/** What the consent and data-rights tests share. */
export { SITE } from '../auth/helpers'

let n = 0
/** A client of its own each time: the lead forms are limited per IP. */
const nextIp = () => `198.51.100.${(++n % 250) + 1}`

/** The forms whose page runs the challenge: its widget adds the token to what the form posts. */
const CHALLENGED_FORMS = new Set([
  '/privacy/request',
  '/auth/sign-up',
  '/auth/magic-link',
  '/auth/recover',
  '/api/newsletter',
  '/api/guide-requests',
  '/api/bookings',
])

type Fetcher = (request: Request) => Promise<Response>

/** The posts of the site's pages, sent with `send`. */
function posts(send: Fetcher) {
  return {
    /**
     * A form posted from one of the site's pages, as the browser posts it (URL-encoded), with
     * the challenge's token where the page runs one (a browser with JavaScript).
     */
    postForm: (path: string, fields: Record<string, string>, headers: HeadersInit = {}) =>
      send(
        new Request(SITE + path, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Origin: SITE,
            'Sec-Fetch-Site': 'same-origin',
            'CF-Connecting-IP': nextIp(),
            ...headers,
          },
          body: new URLSearchParams(
            CHALLENGED_FORMS.has(path) ? { [TOKEN_FIELD]: DUMMY_TOKEN, ...fields } : fields,
          ).toString(),
        }),
      ),
    /** JSON as the site's islands post it, with the challenge token where the form e-mails. */
    postJson: (path: string, body: unknown, headers: HeadersInit = {}) =>
      send(
        new Request(SITE + path, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': nextIp(), ...headers },
          body: JSON.stringify(withTokenFor(path, body)),
        }),
      ),
  }
}

export const { postForm, postJson } = posts((request) => SELF.fetch(request))

/**
 * The same posts to the site with these bindings over the tests' own, its background work
 * awaited: for a test that needs a setting of its own (a higher mail ceiling, say).
 */
export const siteWith = (overrides: Partial<Bindings>) =>
  posts(async (request) => {
    const ctx = createExecutionContext()
    const res = await app.fetch(request, { ...env, ...overrides }, ctx)
    await waitOnExecutionContext(ctx)
    return res
  })

/** The link of a delivered e-mail that starts with `prefix` (its text part, as a reader sees). */
export async function linkIn(to: string, subject: RegExp, prefix: string) {
  const mail = await delivered(to, subject)
  const escaped = prefix.replace(/[.?*+^$[\]\\(){}|-]/g, '\\$&')
  const url = mail.text?.match(new RegExp(`${escaped}[^\\s]+`))?.[0]
  if (!url) throw new Error(`no ${prefix} link in "${mail.subject}"`)
  return { url, mail }
}

export const tokenOf = (url: string) => new URL(url).searchParams.get('token')!

/** The subscriber row of an address. */
export const subscriber = (email: string) =>
  env.DB.prepare('SELECT * FROM subscribers WHERE email = ?').bind(email).first<{
    status: string
    consent_version: string
    consented_at: string
    confirmed_at: string | null
    confirm_ip_hash: string | null
    confirm_nonce: string | null
    unsubscribed_at: string | null
    language: string
  }>()

/** The visible text of a page, tags and scripts gone, whitespace folded. */
export const textOf = (html: string) =>
  html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
