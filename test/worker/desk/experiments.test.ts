import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import ar from '../../../locales/ar.json'
import en from '../../../locales/en.json'
import { formatNumber } from '../../../worker/i18n/format'
import { get, person, post } from './helpers'

// The desk's experiments (/desk/experiments): who may use them; a draft written, changed,
// started, paused, resumed, stopped, and its winner picked (B becomes the page's text, and the
// experiment is archived with its figures); one experiment per text; a double press changes
// once; bad input is told, in the desk's language, never a 500.

const X = en.desk_experiments
const XA = ar.desk_experiments

/** The page's text as a reader gets it: React's escapes undone. */
const unescape = (s: string) =>
  s
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')

const text = async (res: Response) => unescape(await res.text())

/** The form as the page posts it: the text, the goal, the split, B per language. */
const form = (f: {
  target: string
  goal?: string
  split?: string
  b?: Record<string, string>
}) => ({
  target: f.target,
  goal: f.goal ?? 'booking',
  split: f.split ?? '50',
  ...Object.fromEntries(
    ['en', 'es', 'fr', 'de', 'ar', 'pt'].map((l) => [`text_${l}`, f.b?.[l] ?? '']),
  ),
})

const row = (id: number) =>
  env.DB.prepare('SELECT * FROM experiments WHERE id = ?').bind(id).first<{
    target: string
    status: string
    split_b: number
    goal: string
    texts: string
    seed: string
    winner: string | null
    results: string | null
    started_at: string | null
    ended_at: string | null
  }>()

const generation = async () =>
  (await env.DB.prepare(
    "SELECT generation FROM content_generations WHERE tag = 'experiments'",
  ).first<number>('generation')) ?? 0

const audits = (action: string, id: number) =>
  env.DB.prepare('SELECT COUNT(*) AS n FROM desk_audit WHERE action = ? AND target = ?')
    .bind(action, `experiment/${id}`)
    .first<number>('n')

/** The experiment a create answered with (its address), and the notice it lands on. */
const idOf = (res: Response) => {
  const location = new URL(res.headers.get('Location')!, 'http://x')
  return { id: Number(location.pathname.split('/')[3]), query: location.search }
}

/** dev_analytics rows as worker/analytics/record.ts writes an experiment's data points. */
async function seedPoints(
  id: number,
  points: {
    event: 'exp_exposure' | 'exp_conversion'
    variant: 'A' | 'B'
    lang: string
    n: number
  }[],
) {
  const insert = env.DB.prepare(
    'INSERT INTO dev_analytics (index1, blobs, doubles, created_at) VALUES (?, ?, ?, ?)',
  )
  const at = new Date().toISOString()
  await env.DB.batch(
    points.flatMap((p) =>
      Array.from({ length: p.n }, () =>
        insert.bind(
          p.event,
          JSON.stringify([
            '/services/amazon',
            p.lang,
            'GB',
            'LHR',
            '',
            'desktop',
            'human',
            'signed-out',
            '',
            String(id),
            p.variant,
          ]),
          JSON.stringify([200, 0, 1]),
          at,
        ),
      ),
    ),
  )
}

const staff = new Map<string, string>()
const cookie = (role: string) => staff.get(role)!

beforeAll(async () => {
  for (const role of ['owner', 'admin', 'editor', 'sales', 'writer'] as const)
    staff.set(role, (await person({ staff: role, secondFactor: true })).cookie)
}, 120_000)

describe('who may use the experiments', { timeout: 60_000 }, () => {
  it('opens them to the Owner, Admins and Editors (in their bar), and to nobody else: the not-found page, or 403', async () => {
    for (const role of ['owner', 'admin', 'editor']) {
      const res = await get('/desk/experiments', cookie(role))
      expect(res.status, role).toBe(200)
      const html = await text(res)
      expect(html, role).toContain(X.intro)
      expect(html, role).toContain('href="/desk/experiments"')
    }
    for (const role of ['sales', 'writer']) {
      const page = await get('/desk/experiments', cookie(role))
      expect(page.status, role).toBe(404)
      expect(await page.text(), role).toContain(en.not_found.title)
      const made = await post(
        '/desk/experiments',
        form({ target: 'service.etsy.headline', b: { en: 'Not mine to test' } }),
        cookie(role),
      )
      expect(made.status, role).toBe(403)
      // their bar does not offer it
      const own = await get(role === 'sales' ? '/desk' : '/desk/content/article', cookie(role))
      expect(await own.text(), role).not.toContain('href="/desk/experiments"')
    }
    const none = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM experiments WHERE target = 'service.etsy.headline'",
    ).first<number>('n')
    expect(none).toBe(0)
  })
})

describe('an experiment from draft to winner', { timeout: 90_000 }, () => {
  it('is written, changed, started, paused, resumed, stopped; picking B makes B the page text and archives it with its figures', async () => {
    const editor = cookie('editor')
    const target = 'service.amazon.headline'
    // the form shows A in each language: the page's text now
    const blank = await text(await get(`/desk/experiments/new?target=${target}`, editor))
    expect(blank).toContain(en.services.items.amazon.tagline)
    expect(blank).toContain(ar.services.items.amazon.tagline)
    expect(blank).toMatch(
      /<textarea[^>]*name="text_ar"[^>]*dir="rtl"|<textarea[^>]*dir="rtl"[^>]*name="text_ar"/,
    )

    const made = await post(
      '/desk/experiments',
      form({ target, split: '50', b: { en: 'Amazon ads that pay for themselves' } }),
      editor,
    )
    expect(made.status).toBe(303)
    const { id, query } = idOf(made)
    expect(query).toBe('?done=created')
    expect(await row(id)).toMatchObject({ target, status: 'draft', split_b: 50, goal: 'booking' })
    expect((await row(id))!.seed).toMatch(/^[0-9a-f]{32}$/)

    // changed while a draft: the split, the goal, B in two languages (an empty one keeps A)
    const b = { en: 'Amazon ads  that\npay for themselves', ar: 'إعلانات Amazon تغطي تكلفتها' }
    const saved = await post(
      `/desk/experiments/${id}`,
      form({ target, split: '30', goal: 'any_lead', b }),
      editor,
    )
    expect(saved.headers.get('Location')).toBe(`/desk/experiments/${id}?done=saved`)
    expect(await row(id)).toMatchObject({ split_b: 30, goal: 'any_lead' })
    expect(JSON.parse((await row(id))!.texts)).toEqual({
      en: 'Amazon ads that pay for themselves',
      ar: 'إعلانات Amazon تغطي تكلفتها',
    })
    const draft = await text(await get(`/desk/experiments/${id}?done=saved`, editor))
    expect(draft).toContain(X.done.saved)
    expect(draft).toContain('Amazon ads that pay for themselves')

    // started: the pages re-key (the generation moves), and a started one is no longer edited
    const before = await generation()
    const started = await post(`/desk/experiments/${id}/start`, {}, editor)
    expect(started.headers.get('Location')).toBe(`/desk/experiments/${id}?done=started`)
    expect(await row(id)).toMatchObject({ status: 'running' })
    const startedAt = (await row(id))!.started_at
    expect(startedAt).toBeTruthy()
    expect(await generation()).toBeGreaterThan(before)
    const edit = await post(`/desk/experiments/${id}`, form({ target, split: '90', b }), editor)
    expect(edit.headers.get('Location')).toBe(`/desk/experiments/${id}?error=already_running`)
    expect(await row(id)).toMatchObject({ split_b: 30 })

    const paused = await post(`/desk/experiments/${id}/pause`, {}, editor)
    expect(paused.headers.get('Location')).toBe(`/desk/experiments/${id}?done=paused`)
    expect(await row(id)).toMatchObject({ status: 'paused' })
    const resumed = await post(`/desk/experiments/${id}/resume`, {}, editor)
    expect(resumed.headers.get('Location')).toBe(`/desk/experiments/${id}?done=resumed`)
    // started once: a resume keeps the first start
    expect(await row(id)).toMatchObject({ status: 'running', started_at: startedAt })
    const stopped = await post(`/desk/experiments/${id}/stop`, {}, editor)
    expect(stopped.headers.get('Location')).toBe(`/desk/experiments/${id}?done=stopped`)
    expect(await row(id)).toMatchObject({ status: 'stopped' })
    expect((await row(id))!.ended_at).toBeTruthy()

    // its figures: visitors and conversions per variant and language
    await seedPoints(id, [
      { event: 'exp_exposure', variant: 'A', lang: 'en', n: 40 },
      { event: 'exp_exposure', variant: 'B', lang: 'en', n: 12 },
      { event: 'exp_exposure', variant: 'B', lang: 'ar', n: 5 },
      { event: 'exp_conversion', variant: 'A', lang: 'en', n: 2 },
      { event: 'exp_conversion', variant: 'B', lang: 'en', n: 3 },
    ])
    const page = await text(await get(`/desk/experiments/${id}`, editor))
    expect(page).toContain(X.results.title)
    expect(page).toContain(X.verdict.too_early_title)
    expect(page).toMatch(/data-variant="B"[^>]*>[\s\S]*?17/)

    // picked: B is the page's text in the languages it was written in, for every visitor
    const picked = await post(`/desk/experiments/${id}/winner`, { winner: 'B' }, editor)
    expect(picked.headers.get('Location')).toBe(`/desk/experiments/${id}?done=picked`)
    const archived = (await row(id))!
    expect(archived).toMatchObject({ status: 'archived', winner: 'B' })
    const kept = JSON.parse(archived.results!)
    expect(kept.counts.A).toMatchObject({ visitors: 40, conversions: 2 })
    expect(kept.counts.B).toMatchObject({ visitors: 17, conversions: 3 })
    expect(kept.analysis.verdict.kind).toBe('too_early')
    const { results: texts } = await env.DB.prepare(
      'SELECT lang, text, experiment_id FROM site_texts WHERE key = ? ORDER BY lang',
    )
      .bind('services.items.amazon.tagline')
      .all()
    expect(texts).toEqual([
      { lang: 'ar', text: 'إعلانات Amazon تغطي تكلفتها', experiment_id: id },
      { lang: 'en', text: 'Amazon ads that pay for themselves', experiment_id: id },
    ])
    const visitor = await text(await get('/services/amazon'))
    expect(visitor).toContain('Amazon ads that pay for themselves')
    expect(await text(await get('/services/amazon?lang=fr'))).toContain(
      (await import('../../../locales/fr.json')).services.items.amazon.tagline,
    )

    // the archive shows the winner and the figures as they stood
    const record = await text(await get(`/desk/experiments/${id}?done=picked`, editor))
    expect(record).toContain(X.done.picked)
    expect(record).toContain(X.winner.title.replace('{{variant}}', 'B'))
    expect(record).not.toContain(`/desk/experiments/${id}/winner`)
    // and A as it was, though the site's text is B now
    expect(kept.textsA.en).toBe(en.services.items.amazon.tagline)
    expect(record).toContain(en.services.items.amazon.tagline)
    const again = await post(`/desk/experiments/${id}/winner`, { winner: 'A' }, editor)
    expect(again.headers.get('Location')).toBe(`/desk/experiments/${id}?error=already_archived`)
    expect((await row(id))!.winner).toBe('B')

    // each change in the history, linked to the experiment
    for (const action of ['create', 'update', 'start', 'pause', 'resume', 'stop', 'winner'])
      expect(await audits(`experiment.${action}`, id), action).toBe(1)
    const history = await text(await get('/desk/history?action=experiments', cookie('admin')))
    expect(history).toContain(en.desk_history.actions.experiment.winner)
    expect(history).toContain(`href="/desk/experiments/${id}"`)
    expect(history).toContain(X.list.winner.replace('{{variant}}', 'B'))

    // the list: the live ones first, the archived one with its winner
    const list = await text(await get('/desk/experiments', editor))
    expect(list).toContain(`data-experiment="${id}" data-status="archived"`)
    expect(list).toContain(X.list.winner.replace('{{variant}}', 'B'))
  })
})

describe('one experiment per text, once per press', { timeout: 60_000 }, () => {
  it('refuses a second experiment on a text that has one, with a clear notice and a link to it', async () => {
    const admin = cookie('admin')
    const target = 'service.shopify.headline'
    const first = idOf(
      await post('/desk/experiments', form({ target, b: { en: 'First' } }), admin),
    ).id
    const second = await post(
      '/desk/experiments?lang=ar',
      form({ target, b: { en: 'Second' } }),
      admin,
    )
    expect(second.status).toBe(409)
    const html = await text(second)
    expect(html).toContain(XA.field_errors.taken)
    expect(html).toContain(`href="/desk/experiments/${first}"`)
    // what was typed is kept
    expect(html).toContain('Second')
    const { n } = (await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM experiments WHERE target = ? AND status != 'archived'",
    )
      .bind(target)
      .first<{ n: number }>())!
    expect(n).toBe(1)
    // a draft moved onto that text is refused the same way
    const other = idOf(
      await post(
        '/desk/experiments',
        form({ target: 'service.etsy.headline', b: { en: 'Etsy' } }),
        admin,
      ),
    ).id
    const moved = await post(
      `/desk/experiments/${other}`,
      form({ target, b: { en: 'Etsy' } }),
      admin,
    )
    expect(moved.status).toBe(409)
    expect(await text(moved)).toContain(X.field_errors.taken)
    expect((await row(other))!.target).toBe('service.etsy.headline')
  })

  it('starts once on a double press: the second is told it is running already', async () => {
    const admin = cookie('admin')
    const { id } = idOf(
      await post(
        '/desk/experiments',
        form({ target: 'service.email-marketing.headline', b: { de: 'Mehr Umsatz per E-Mail' } }),
        admin,
      ),
    )
    const presses = await Promise.all([
      post(`/desk/experiments/${id}/start`, {}, admin),
      post(`/desk/experiments/${id}/start`, {}, admin),
    ])
    const outcomes = presses
      .map((r) => new URL(r.headers.get('Location')!, 'http://x').search)
      .sort()
    expect(outcomes).toEqual(['?done=started', '?error=already_running'])
    expect(await audits('experiment.start', id)).toBe(1)
    const notice = await text(await get(`/desk/experiments/${id}?error=already_running`, admin))
    expect(notice).toContain(X.errors.already_running)
    // and stops once
    await post(`/desk/experiments/${id}/stop`, {}, admin)
    const late = await post(`/desk/experiments/${id}/pause`, {}, admin)
    expect(late.headers.get('Location')).toBe(`/desk/experiments/${id}?error=already_stopped`)
    expect(await audits('experiment.pause', id)).toBe(0)
  })
})

describe('bad input', { timeout: 60_000 }, () => {
  it('is told field by field, in the desk language, and nothing is saved', async () => {
    const admin = cookie('admin')
    const target = 'service.saas-strategy.headline'
    const res = await post(
      '/desk/experiments?lang=ar',
      form({ target, split: '150', goal: 'likes', b: { fr: 'x'.repeat(301) } }),
      admin,
    )
    expect(res.status).toBe(422)
    const html = await text(res)
    expect(html).toContain(XA.errors.form)
    expect(html).toContain(XA.field_errors.range)
    expect(html).toContain(XA.field_errors.invalid)
    expect(html).toContain(XA.field_errors.too_long.replace('{{max}}', formatNumber('ar', 300)))
    expect(html).toMatch(/<html[^>]*dir="rtl"/)
    const { n } = (await env.DB.prepare('SELECT COUNT(*) AS n FROM experiments WHERE target = ?')
      .bind(target)
      .first<{ n: number }>())!
    expect(n).toBe(0)
    // a text the site does not offer: the list of those it does
    const unknown = await post('/desk/experiments', form({ target: 'footer.copyright' }), admin)
    expect(unknown.status).toBe(400)
    expect(await text(unknown)).toContain(X.errors.target)
    // a split that is no number, a winner that is neither
    const words = await post('/desk/experiments', form({ target, split: 'half' }), admin)
    expect(words.status).toBe(422)
    expect(await text(words)).toContain(X.field_errors.range)
  })

  it('starts nothing without B in some language, and says so', async () => {
    const admin = cookie('admin')
    const { id } = idOf(await post('/desk/experiments', form({ target: 'home.hero_cta' }), admin))
    const res = await post(`/desk/experiments/${id}/start`, {}, admin)
    expect(res.headers.get('Location')).toBe(`/desk/experiments/${id}?error=no_texts`)
    expect((await row(id))!.status).toBe('draft')
    expect(await text(await get(`/desk/experiments/${id}?error=no_texts`, admin))).toContain(
      X.errors.no_texts,
    )
    const winner = await post(`/desk/experiments/${id}/winner`, { winner: 'C' }, admin)
    expect(winner.headers.get('Location')).toBe(`/desk/experiments/${id}?error=invalid`)
    const missing = await get('/desk/experiments/99999999', admin)
    expect(missing.status).toBe(404)
  })
})
