import { env, SELF } from 'cloudflare:test'
import { delivered } from '../mail/helpers'
import { SITE } from '../auth/helpers'

/** What the consent and data-rights tests share. */
export { SITE } from '../auth/helpers'

let n = 0
/** A client of its own each time: the lead forms are limited per IP. */
const nextIp = () => `198.51.100.${(++n % 250) + 1}`

/** A form posted from one of the site's pages, as a browser without JavaScript posts it. */
export const postForm = (path: string, fields: Record<string, string>, headers: HeadersInit = {}) =>
  SELF.fetch(SITE + path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: SITE,
      'Sec-Fetch-Site': 'same-origin',
      'CF-Connecting-IP': nextIp(),
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  })

export const postJson = (path: string, body: unknown, headers: HeadersInit = {}) =>
  SELF.fetch(SITE + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': nextIp(), ...headers },
    body: JSON.stringify(body),
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
