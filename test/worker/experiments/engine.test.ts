import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import en from '../../../locales/en.json'
import { bucket, variantOf } from '../../../worker/experiments/assign'
import { randomIp } from '../random-ip'

// The engine of the experiments (docs/experiments.md): assignment at the edge, the variant in
// the server's HTML and the edge's copies, exposures and conversions counted once, only for
// visitors who accepted analytics. Its own workerd (vitest.worker.config.ts ISOLATED): a
// running experiment on the home page's title would show other files' visitors a B.

const SEED = 'engine-test-seed'
const B_EN = 'Grow your store with a team that answers in minutes'
const B_AR = 'نمِّ متجرك مع فريق يرد خلال دقائق'
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const GOOGLEBOT =
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.0.0 Safari/537.36'

/** A visitor id (22 characters, as the site makes them) that the seed puts in `variant`. */
function idIn(variant: 'A' | 'B') {
  for (;;) {
    const id = crypto.randomUUID().replaceAll('-', '').slice(0, 22)
    if (variantOf(SEED, 50, id) === variant) return id
  }
}

let experimentId = 0

beforeAll(async () => {
  const row = await env.DB.prepare(
    `INSERT INTO experiments (target, seed, split_b, goal, texts, status, created_by, started_at)
     VALUES ('home.hero_title', ?, 50, 'contact', ?, 'running', 'test', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
     RETURNING id`,
  )
    .bind(SEED, JSON.stringify({ en: B_EN, ar: B_AR }))
    .first<{ id: number }>()
  experimentId = row!.id
  await env.DB.prepare(
    `INSERT INTO content_generations (tag, generation, changed_at) VALUES ('experiments', 1, 'now')
     ON CONFLICT (tag) DO UPDATE SET generation = generation + 1`,
  ).run()
})

function home(lang: string, cookies: Record<string, string>, userAgent = CHROME) {
  return SELF.fetch(`https://example.com/?lang=${lang}`, {
    headers: {
      'User-Agent': userAgent,
      'CF-Connecting-IP': randomIp(),
      Cookie: Object.entries(cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join('; '),
    },
  })
}

const h1 = (html: string) => /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)![1]!.replace(/<[^>]+>/g, '')

/** The exposures and conversions counted for the experiment (the D1 copy of the analytics). */
async function counted() {
  const { results } = await env.DB.prepare(
    `SELECT index1 AS event, json_extract(blobs, '$[10]') AS variant, json_extract(blobs, '$[1]') AS lang
     FROM dev_analytics WHERE index1 IN ('exp_exposure', 'exp_conversion')
     AND json_extract(blobs, '$[9]') = ? ORDER BY id`,
  )
    .bind(String(experimentId))
    .all<{ event: string; variant: string; lang: string }>()
  return results
}

/** The cookie a response sets, by name. */
const setCookie = (res: Response, name: string) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0]!
    .slice(name.length + 1)

describe('assignment', () => {
  it('splits 100,000 simulated visitors 50/50 within 1%, and 20/80 likewise', () => {
    let b = 0
    let b20 = 0
    for (let i = 0; i < 100_000; i++) {
      const id = `visitor-${i}-${(i * 2654435761) % 1_000_003}`
      if (variantOf('hero-seed-1', 50, id) === 'B') b++
      if (variantOf('hero-seed-2', 20, id) === 'B') b20++
    }
    expect(Math.abs(b / 100_000 - 0.5)).toBeLessThan(0.01)
    expect(Math.abs(b20 / 100_000 - 0.2)).toBeLessThan(0.01)
  })

  it('keeps a visitor in one variant, and depends on the seed', () => {
    const id = 'aB3dE5fG7hI9jK1lM3nO5p'
    const first = variantOf(SEED, 50, id)
    for (let i = 0; i < 10; i++) expect(variantOf(SEED, 50, id)).toBe(first)
    expect(bucket(SEED, id)).toBe(bucket(SEED, id))
    // GrowthBook's hash v2 of seed "a" and id "1" (fnv32a(fnv32a("a1") + "") % 10000 / 10000),
    // worked out apart in Python (h ^= ord(ch); h = h * 0x01000193 & 0xffffffff from 0x811c9dc5):
    // fnv32a("a1") = 472168615, fnv32a("472168615") = 3336098633
    expect(bucket('a', '1')).toBe(0.8633)
  })
})

describe('a page with an experiment', () => {
  it('shows a counted visitor in B the text of B in the HTML, counts one exposure, and keeps the copy apart', async () => {
    const visitor = idIn('B')
    const cookies = { 'tracking-consent': 'granted', 'visitor-id': visitor }
    const first = await home('en', cookies)
    const html = await first.text()
    expect(h1(html)).toBe(B_EN)
    const exposures = setCookie(first, `exp-${experimentId}`)
    expect(exposures).toMatch(/^\d+\.en$/)
    // a later page with the cookie: B again, from the edge's copy, no second exposure
    const again = await home('en', { ...cookies, [`exp-${experimentId}`]: exposures! })
    expect(h1(await again.text())).toBe(B_EN)
    expect(setCookie(again, `exp-${experimentId}`)).toBeUndefined()
    // someone in A at the same time gets A, and the copy of B is not theirs
    const other = idIn('A')
    const a = await home('en', { 'tracking-consent': 'granted', 'visitor-id': other })
    expect(h1(await a.text())).toBe(en.hero.title)
    expect((await counted()).filter((r) => r.event === 'exp_exposure')).toEqual([
      { event: 'exp_exposure', variant: 'B', lang: 'en' },
      { event: 'exp_exposure', variant: 'A', lang: 'en' },
    ])
  })

  it('shows B in Arabic to a visitor in B', async () => {
    const res = await home('ar', { 'tracking-consent': 'granted', 'visitor-id': idIn('B') })
    expect(h1(await res.text())).toBe(B_AR)
  })

  it('gives a visitor who accepted analytics an id, and counts them from that page', async () => {
    const before = (await counted()).length
    const res = await home('en', { 'tracking-consent': 'granted' })
    const id = setCookie(res, 'visitor-id')
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(h1(await res.text())).toBe(variantOf(SEED, 50, id!) === 'B' ? B_EN : en.hero.title)
    expect((await counted()).length).toBe(before + 1)
    expect(res.headers.getSetCookie().find((c) => c.startsWith('visitor-id='))).toMatch(
      /Max-Age=7776000; Path=\/; HttpOnly;( Secure;)? SameSite=Lax/,
    )
  })

  it('shows A to a crawler and to a visitor without consent, counts neither, and gives neither an id', async () => {
    const before = (await counted()).length
    const inB = idIn('B')
    for (const res of [
      await home('en', { 'tracking-consent': 'granted', 'visitor-id': inB }, GOOGLEBOT),
      await home('en', { 'visitor-id': inB }),
      await home('en', { 'tracking-consent': 'denied', 'visitor-id': inB }),
      await home('en', {}),
    ]) {
      expect(h1(await res.text())).toBe(en.hero.title)
      expect(setCookie(res, 'visitor-id')).toBeUndefined()
      expect(setCookie(res, `exp-${experimentId}`)).toBeUndefined()
    }
    expect((await counted()).length).toBe(before)
  })
})

describe('the edge refreshing a stale copy', () => {
  it('renders the variant of the cookies it carries, and counts or gives nothing', async () => {
    const before = (await counted()).length
    const refresh = (cookies: Record<string, string>) =>
      SELF.fetch('https://example.com/', {
        headers: {
          'x-render-refresh': '1',
          'Accept-Language': 'en',
          Cookie: Object.entries(cookies)
            .map(([k, v]) => `${k}=${v}`)
            .join('; '),
        },
      })
    const inB = await refresh({ 'tracking-consent': 'granted', 'visitor-id': idIn('B') })
    expect(h1(await inB.text())).toBe(B_EN)
    const noId = await refresh({ 'tracking-consent': 'granted' })
    expect(h1(await noId.text())).toBe(en.hero.title)
    for (const res of [inB, noId]) expect(res.headers.getSetCookie()).toEqual([])
    expect((await counted()).length).toBe(before)
  })
})

describe('consent', () => {
  it('is asked on a page an experiment runs on, even with no tracker configured, and not elsewhere', async () => {
    const page = await (await home('en', {})).text()
    expect(page).toContain('id="consent-banner"')
    expect(page).toContain(en.consent.text_tests)
    // the footer's link brings the banner back (to withdraw)
    expect(page).toContain('data-consent-settings')
    const about = await (
      await SELF.fetch('https://example.com/about?lang=en', { headers: { 'User-Agent': CHROME } })
    ).text()
    expect(about).not.toContain('id="consent-banner"')
    expect(about).not.toContain('data-consent-settings')
  })

  it('can be changed on the privacy policy without JavaScript, where the footer’s link leads', async () => {
    const res = await SELF.fetch('https://example.com/privacy-policy?lang=en', {
      headers: { Cookie: 'tracking-consent=granted' },
    })
    const policy = await res.text()
    expect(policy).toContain('id="consent"')
    expect(policy).toContain(en.consent.current_tests_granted)
    expect(policy).toMatch(/<form[^>]* action="\/api\/consent" method="post"/)
  })

  it('given, brings an id; refused, takes the id and the exposures away', async () => {
    const form = (choice: string, cookie = '') =>
      SELF.fetch('https://example.com/api/consent', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Origin: 'https://example.com',
          Cookie: cookie,
        },
        body: JSON.stringify({ choice }),
      })
    const granted = await form('granted')
    expect(setCookie(granted, 'visitor-id')).toMatch(/^[A-Za-z0-9_-]{22}$/)
    const denied = await form('denied', `visitor-id=${idIn('B')}; exp-${experimentId}=1.en`)
    const gone = denied.headers.getSetCookie()
    expect(gone.find((c) => c.startsWith('visitor-id=;'))).toMatch(/Max-Age=0/)
    expect(gone.find((c) => c.startsWith(`exp-${experimentId}=;`))).toMatch(/Max-Age=0/)
  })
})

describe('a conversion', () => {
  const contact = (cookies: Record<string, string>) =>
    SELF.fetch('https://example.com/api/contact', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': CHROME,
        'CF-Connecting-IP': randomIp(),
        Cookie: Object.entries(cookies)
          .map(([k, v]) => `${k}=${v}`)
          .join('; '),
      },
      body: JSON.stringify({
        name: 'Lin',
        email: `conv${crypto.randomUUID().slice(0, 8)}@example.org`,
        company: 'Lin Ltd',
        service: 'amazon',
        budget: '1k_5k',
        message: 'We sell tea on Amazon and want more reviews.',
      }),
    })

  it("counts for the visitor's variant after their exposure, once", async () => {
    const visitor = idIn('B')
    const cookies = { 'tracking-consent': 'granted', 'visitor-id': visitor }
    const page = await home('en', cookies)
    await page.text()
    const exposures = setCookie(page, `exp-${experimentId}`)!
    const sent = await contact({ ...cookies, [`exp-${experimentId}`]: exposures })
    expect(sent.status).toBe(200)
    const marked = setCookie(sent, `exp-${experimentId}`)
    expect(marked).toMatch(/^\d+\.en\.c$/)
    // a second message converts no more
    expect((await contact({ ...cookies, [`exp-${experimentId}`]: marked! })).status).toBe(200)
    const conversions = (await counted()).filter((r) => r.event === 'exp_conversion')
    expect(conversions).toEqual([{ event: 'exp_conversion', variant: 'B', lang: 'en' }])
  })

  it('counts in the language of the page that exposed the visitor, not the form’s', async () => {
    const cookies = { 'tracking-consent': 'granted', 'visitor-id': idIn('B') }
    const page = await home('ar', cookies)
    await page.text()
    const exposure = setCookie(page, `exp-${experimentId}`)!
    expect(exposure).toMatch(/^\d+\.ar$/)
    // the message sent from an English page
    const sent = await contact({
      ...cookies,
      [`exp-${experimentId}`]: exposure,
      'preferred-language': 'en',
    })
    expect(sent.status).toBe(200)
    const last = (await counted()).at(-1)
    expect(last).toEqual({ event: 'exp_conversion', variant: 'B', lang: 'ar' })
  })

  it('is not counted without an exposure before it, or without consent', async () => {
    const before = (await counted()).length
    expect((await contact({ 'tracking-consent': 'granted', 'visitor-id': idIn('B') })).status).toBe(
      200,
    )
    const seen = `${Math.floor(Date.now() / 1000) - 60}.en`
    expect((await contact({ 'visitor-id': idIn('B'), [`exp-${experimentId}`]: seen })).status).toBe(
      200,
    )
    expect((await counted()).length).toBe(before)
  })
})
