import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import type { Context } from 'hono'
import { PatternRouter } from 'hono/router/pattern-router'
import { beforeAll, describe, expect, it } from 'vitest'
import en from '../../locales/en.json'
import { dataPointOf } from '../../worker/analytics/record'
import type { Bindings } from '../../worker/bindings'
import type { OutboxRow } from '../../worker/db/outbox'
import type { AppEnv } from '../../worker/env'
import app from '../../worker/index'
import { renderMail } from '../../worker/mail/render'
import { TEMPLATES, type MailKind } from '../../worker/mail/templates'
import { PAGE_ROUTES, type PageRoute } from '../../worker/routes'
import { SITE } from './auth/helpers'
import { issueWith } from './newsletter'

// Every address that carries a secret (a token) to one of the site's pages, found where such
// addresses are made: every kind of e-mail, rendered as it is sent, and every link the auth
// service makes for its e-mails. Each must lead to a route flagged `secretLink` in the route
// table, and each such page answers with Referrer-Policy: no-referrer and holds no tracker
// (issue 55, finding 4). A new kind of e-mail needs a sample here; a new link of the auth
// service is found by its name (`…Link`).

/** A real booking and a pending sign-up, so their links open their real pages. */
const BOOKING_TOKEN = crypto.randomUUID()
const NONCE = crypto.randomUUID()
/** The auth service's tokens: not sealed, so the links that carry them are known by them. */
const AUTH_TOKEN = `auth-secret-${crypto.randomUUID()}`
/** Secrets a link carries as they are (the sealed ones differ at every rendering). */
const RAW_SECRETS = [BOOKING_TOKEN, NONCE, AUTH_TOKEN]

const TRACKERS = { GA_MEASUREMENT_ID: 'G-ABC123XYZ', META_PIXEL_ID: '123456789012345' }

const booked = {
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  slotStart: '2099-12-01T10:00:00.000Z',
  slotEnd: '2099-12-01T10:30:00.000Z',
  timeZone: 'Europe/London',
  token: BOOKING_TOKEN,
  language: 'en',
}

/** What the auth service's link builders get: the site's address and the e-mail's language. */
const authContext = { var: { config: { siteUrl: SITE }, lang: 'en' } } as unknown as Context<AppEnv>

/** The links the auth service e-mails (worker/auth-service: every export named `…Link`). */
async function authServiceLinks() {
  const modules = import.meta.glob<Record<string, unknown>>('../../worker/auth-service/*.ts', {
    eager: true,
  })
  const links: { name: string; url: string }[] = []
  for (const [file, exports] of Object.entries(modules))
    for (const [name, value] of Object.entries(exports)) {
      if (!/Link$/.test(name) || typeof value !== 'function') continue
      // a builder of (context, token); a flow's link (pkce.ts, its code to any page) is not one
      const url = await Promise.resolve()
        .then(() => (value as (c: unknown, token: string) => unknown)(authContext, AUTH_TOKEN))
        .catch(() => undefined)
      if (typeof url === 'string' && url.startsWith(SITE))
        links.push({ name: `${file} ${name}`, url })
    }
  return links
}

/** What each kind of e-mail is rendered with, by the name the outbox stores. */
const SAMPLES: Record<string, unknown> = {
  welcome: { name: 'Ada' },
  subscribe_confirm: { name: 'Ada', nonce: NONCE },
  newsletter: { subject: 'Five listing fixes', paragraphs: ['First.', 'Second.'] },
  newsletter_test: { issue: 0 },
  data_request: { action: 'export', email: 'reader@example.org' },
  guide: { name: 'Ada', guide: 'social-media-growth-kit', nonce: NONCE },
  booking_confirmation: booked,
  agency_booking: booked,
  booking_cancelled: {
    name: booked.name,
    slotStart: booked.slotStart,
    timeZone: booked.timeZone,
    invitation: { ...booked, sequence: 1 },
  },
  booking_moved: { ...booked, previousStart: '2099-11-30T10:00:00.000Z' },
  agency_booking_changed: {
    name: booked.name,
    email: booked.email,
    slotStart: booked.slotStart,
    movedTo: '2099-12-02T10:00:00.000Z',
    agencyTimeZone: 'Europe/London',
  },
  booking_reminder: { ...booked, hours: 24, meetingUrl: 'https://meet.jit.si/northstar-test' },
  agency_contact: {
    name: 'Ada Lovelace',
    email: 'ada@example.org',
    service: 'amazon',
    budget: '1k_5k',
    message: 'We sell on Amazon.',
    language: 'en',
  },
  agency_digest: { since: '2000-01-01T00:00:00.000Z', until: '2100-01-01T00:00:00.000Z' },
  webhook_disabled: {
    url: 'https://hooks.example.com/leads',
    description: '',
    since: '2026-01-01T09:00:00.000Z',
  },
  // as the auth service sends them: with the links it makes (authServiceLinks)
  auth_recovery: { link: `${SITE}/auth/reset?token=${AUTH_TOKEN}&lang=en` },
  auth_magic_link: {
    link: `${SITE}/auth/confirm?token_hash=${AUTH_TOKEN}&type=magiclink&lang=en`,
    code: '123456',
  },
  auth_reauthentication: { code: '654321' },
  auth_confirm_signup: {
    link: `${SITE}/auth/confirm?token_hash=${AUTH_TOKEN}&type=signup&lang=en`,
  },
  auth_email_change: {
    link: `${SITE}/auth/confirm?token_hash=${AUTH_TOKEN}&type=email_change&lang=en`,
    code: '123456',
  },
  auth_email_change_current: {
    newEmail: 'new@example.org',
    link: `${SITE}/auth/confirm?token_hash=${AUTH_TOKEN}&type=email_change&lang=en`,
    code: '654321',
  },
  team_invite: { token: AUTH_TOKEN, role: 'editor', inviter: 'owner@example.org' },
}

const row = (kind: MailKind): OutboxRow => ({
  id: 42,
  kind,
  data: JSON.stringify(SAMPLES[kind]),
  category: TEMPLATES[kind].category,
  language: 'en',
  to_address: 'reader@example.org',
  site_url: SITE,
  subject: '',
  body_text: null,
  status: 'sending',
  attempts: 1,
  provider: null,
  provider_message_id: null,
  last_error: null,
  created_at: '',
  updated_at: '',
  sent_at: null,
  hold_reason: null,
  unconfirmed: 0,
})

const SITE_LINK = new RegExp(`${SITE.replace(/[.]/g, '\\.')}[^\\s"'<>)\\]]*`, 'g')

/** Every address of the site in a rendered e-mail: its text, its HTML, its headers. */
async function siteLinksOf(kind: MailKind) {
  const m = await renderMail(env, row(kind))
  const all = [m.text, m.html.replaceAll('&amp;', '&'), ...Object.values(m.headers)].join('\n')
  return new Set(all.match(SITE_LINK) ?? [])
}

/** The route of the table a path is served by, matched as Hono matches it. */
const router = new PatternRouter<PageRoute>()
for (const route of PAGE_ROUTES as readonly PageRoute[]) router.add('GET', route.path, route)
const routeOf = (path: string) => router.match('GET', path)[0][0]?.[0]

/** A page as a visitor who accepted the trackers gets it, on a site with trackers configured. */
async function visit(url: string) {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(url, { headers: { Cookie: 'tracking-consent=granted' }, redirect: 'manual' }),
    { ...env, ...TRACKERS } as Bindings,
    ctx,
  )
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body }
}

const TRACKER_HOSTS = /googletagmanager|google-analytics|facebook/g
/** What a page holds of the trackers: their settings for the loader, their IDs, the question. */
const TRACKER_MARKUP = [
  'data-trackers',
  TRACKERS.GA_MEASUREMENT_ID,
  TRACKERS.META_PIXEL_ID,
  'id="consent-banner"',
]

/** Every link that carries a secret, with where it came from. */
const secretLinks: { from: string; url: string }[] = []

beforeAll(async () => {
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO bookings (slot_start, slot_end, name, email, time_zone, language, token, uid)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).bind(
      booked.slotStart,
      booked.slotEnd,
      booked.name,
      booked.email,
      booked.timeZone,
      booked.language,
      BOOKING_TOKEN,
      `${BOOKING_TOKEN}@example.com`,
    ),
    env.DB.prepare(
      `INSERT INTO subscribers
         (email, name, signup_form, language, consent_version, status, consented_at, confirm_nonce)
       VALUES ('ada@example.org', 'Ada', 'newsletter', 'en', '2026-11-01', 'pending',
               strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?)`,
    ).bind(NONCE),
  ])
  SAMPLES.newsletter_test = {
    issue: await issueWith({
      en: { subject: 'Five listing fixes', body: 'See [the blog](/blog).' },
    }),
  }
  // (a kind without a sample fails the first test below)
  for (const kind of (Object.keys(TEMPLATES) as MailKind[]).filter((k) => k in SAMPLES)) {
    // a sealed token is new at every rendering: what differs between two carries one
    const [first, second] = [await siteLinksOf(kind), await siteLinksOf(kind)]
    for (const url of first)
      if (!second.has(url) || RAW_SECRETS.some((s) => url.includes(s)))
        secretLinks.push({ from: `the ${kind} e-mail`, url })
  }
  for (const { name, url } of await authServiceLinks()) secretLinks.push({ from: name, url })
})

describe('the pages of e-mailed secrets', () => {
  it('has a sample of every kind of e-mail, so that each one is read for its links', () => {
    expect(Object.keys(TEMPLATES).filter((kind) => !(kind in SAMPLES))).toEqual([])
  })

  it('finds the links of the e-mails that carry one, and of the auth service', () => {
    const paths = new Set(
      secretLinks.map((l) => new URL(l.url).pathname.replace(/\/[^/]+\.ics$/, '/*.ics')),
    )
    // (what a new kind of link adds to this list is checked by the tests below all the same)
    for (const path of [
      '/auth/reset',
      '/auth/confirm',
      '/privacy/data',
      '/book/manage',
      '/book/*.ics',
      '/subscribe/confirm',
      '/unsubscribe',
      '/join',
    ])
      expect(paths, path).toContain(path)
  })

  it('flags in the route table every route such a link leads to, and no other', () => {
    const reached = new Set<string>()
    for (const { from, url } of secretLinks) {
      const route = routeOf(new URL(url).pathname)
      expect(route, `${url} (${from}) is a page of the route table`).toBeDefined()
      expect(route!.secretLink, `${route!.path} (${from}) is flagged secretLink`).toBe(true)
      reached.add(route!.path)
    }
    const flagged = PAGE_ROUTES.filter((r) => (r as PageRoute).secretLink).map((r) => r.path)
    expect(flagged.sort()).toEqual([...reached].sort())
  })

  it('answers each with no Referer for what it sends, and no tracker in it', async () => {
    // the same visitor and settings on an ordinary page: the trackers are there
    const faq = await visit(`${SITE}/faq`)
    expect(faq.body).toContain(TRACKERS.GA_MEASUREMENT_ID)
    expect(faq.res.headers.get('Content-Security-Policy')).toContain('googletagmanager')
    expect(faq.res.headers.get('Referrer-Policy')).toBe('strict-origin-when-cross-origin')

    for (const { from, url } of secretLinks) {
      const { res, body } = await visit(url)
      const name = `${url} (${from})`
      expect.soft(res.status, name).toBeLessThan(500)
      expect
        .soft(
          {
            referrerPolicy: res.headers.get('Referrer-Policy'),
            trackerHosts: res.headers.get('Content-Security-Policy')?.match(TRACKER_HOSTS) ?? [],
            trackerMarkup: TRACKER_MARKUP.filter((mark) => body.includes(mark)),
          },
          name,
        )
        .toEqual({ referrerPolicy: 'no-referrer', trackerHosts: [], trackerMarkup: [] })
    }
  })

  it('opens the real pages: the booking, the sign-up to confirm, the data to export', async () => {
    const pageOf = (path: string) => secretLinks.find((l) => new URL(l.url).pathname === path)!
    for (const [path, button] of [
      ['/book/manage', en.booking.cancel_button],
      ['/subscribe/confirm', en.subscription.confirm_button],
      ['/privacy/data', en.privacy_request.download_button],
      ['/unsubscribe', en.subscription.unsubscribe_button],
      ['/auth/reset', en.auth.save_password],
    ]) {
      const { res, body } = await visit(pageOf(path).url)
      expect(res.status, path).toBe(200)
      expect(body, path).toMatch(new RegExp(`<button[^>]*>${button}</button>`))
    }
  })

  it('keeps no secret of an address in the analytics: a path with a token counts as its route', () => {
    const visit = {
      request: new Request(`${SITE}/`),
      env: env as Bindings,
      lang: 'en',
      signedIn: false,
    }
    const point = dataPointOf(visit, { event: 'pageview', path: `/book/${BOOKING_TOKEN}.ics` })
    expect(JSON.stringify(point)).not.toContain(BOOKING_TOKEN)
    expect(point.blobs![0]).toBe('/book/:file')
  })
})

describe('the forms on those pages', () => {
  /** A form posted from a page that sends no referrer: Chromium's Origin "null". */
  const post = (headers: Record<string, string>) =>
    SELF.fetch(`${SITE}/auth/reset`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ token: 'x'.repeat(40), password: 'a new password 1' }).toString(),
    })

  it('take a post from the page itself, sent with Origin "null"', async () => {
    const res = await post({ Origin: 'null', 'Sec-Fetch-Site': 'same-origin' })
    // the form's own answer (a spent or unknown link), not the cross-site refusal
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/auth?mode=forgot&error=otp_expired')
  })

  it('refuse "null" from another site, or from a browser that does not say where it is', async () => {
    expect((await post({ Origin: 'null', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403)
    expect((await post({ Origin: 'null' })).status).toBe(403)
  })
})
