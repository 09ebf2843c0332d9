import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import en from '../../../locales/en.json'
import { ROLES, type Role } from '../../../worker/roles'
import { DESK_ROUTES } from '../../../worker/desk/route-permissions'
import { desk } from '../../../worker/desk/routes'
import { unique } from '../auth/helpers'
import { get, person, post } from './helpers'

// The desk's whole route table, by role: every route the desk's router has, for each role, a
// visitor and a signed-in customer, answers as the issue's table of roles says (written out
// below, apart from worker/roles.ts and route-permissions.ts, which it checks). Generated from
// the router itself: a route added without a permission is refused to everyone, and one added
// without a line here fails.

/** Every desk route as the site's router registers it ("GET /desk/bookings"), middleware aside. */
const deskRoutes = () => [
  ...new Set(
    desk.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path === '/' ? '/desk' : `/desk${r.path}`}`),
  ),
]

// Who may use each route, as the issue's table of roles has it. The Owner and Admins everything
// (but the Owner's handover of ownership); a Writer the content desk's routes of their own drafts
// (which drafts, and which kinds, the handlers decide: content.test.ts), never the review's
// "Send back".
const LEADS = ['GET /desk/leads.csv', 'GET /desk/leads/:kind/:id', 'POST /desk/leads/:kind/:id']
const BOOKINGS = [
  'GET /desk/bookings',
  'POST /desk/bookings/:id{[0-9]+}/cancel',
  'POST /desk/bookings/:id{[0-9]+}/move',
]
const MAIL = [
  'GET /desk/mail',
  'POST /desk/mail/:id{[0-9]+}/resend',
  'POST /desk/mail/held/:choice{release|drop}',
]
const DRAFTS = [
  'GET /desk/content',
  'GET /desk/content/:kind',
  'GET /desk/content/:kind/:id',
  'POST /desk/content/:kind/:id',
  'POST /desk/content/:kind/:id/restore',
  'POST /desk/content/media/:name/sizes',
  'POST /desk/content/media',
  'POST /desk/content/preview',
]
const CONTENT = [...DRAFTS, 'POST /desk/content/:kind/:id/return']
const NEWSLETTERS = [
  'GET /desk/newsletters',
  'POST /desk/newsletters',
  'GET /desk/newsletters/:id{[0-9]+}',
  'POST /desk/newsletters/:id{[0-9]+}',
  'GET /desk/newsletters/:id{[0-9]+}/email',
]
const EXPERIMENTS = [
  'GET /desk/experiments',
  'GET /desk/experiments/new',
  'POST /desk/experiments',
  'GET /desk/experiments/:id{[0-9]+}',
  'POST /desk/experiments/:id{[0-9]+}',
  'POST /desk/experiments/:id{[0-9]+}/start',
  'POST /desk/experiments/:id{[0-9]+}/resume',
  'POST /desk/experiments/:id{[0-9]+}/pause',
  'POST /desk/experiments/:id{[0-9]+}/stop',
  'POST /desk/experiments/:id{[0-9]+}/winner',
]
const MAY: Record<Exclude<Role, 'owner' | 'admin'>, string[]> = {
  // /desk itself sends an Editor on to their first section
  editor: [
    'GET /desk',
    'GET /desk/visits',
    'GET /desk/speed',
    ...CONTENT,
    ...NEWSLETTERS,
    ...EXPERIMENTS,
  ],
  sales: ['GET /desk', ...LEADS, ...BOOKINGS, ...MAIL, 'GET /desk/visits'],
  // /desk sends a Writer on to the content desk
  writer: ['GET /desk', ...DRAFTS],
}
/** The Owner's alone: handing ownership to an Admin. */
const OWNERSHIP = 'POST /desk/team/ownership'
const mayUse = (who: Who, route: string) =>
  who === 'owner' ||
  (who === 'admin' && route !== OWNERSHIP) ||
  (who in MAY && MAY[who as keyof typeof MAY].includes(route))

/** A concrete address for a route's pattern: its parameters filled with rows that exist. */
function addressOf(
  pattern: string,
  rows: { lead: number; newsletter: number; experiment: number },
) {
  return pattern
    .replace('/leads/:kind/:id', `/leads/contact/${rows.lead}`)
    .replace('/experiments/:id{[0-9]+}', `/experiments/${rows.experiment}`)
    .replace('/newsletters/:id{[0-9]+}', `/newsletters/${rows.newsletter}`)
    .replace('/content/:kind/:id', '/content/article/new')
    .replace('/content/:kind', '/content/article')
    .replace('/media/:name', '/media/no-such-picture.jpg')
    .replace(':id{[0-9]+}', '999999')
    .replace(':choice{release|drop}', 'release')
    .replace('/members/:id/', '/members/00000000-0000-4000-8000-000000000000/')
}

type Who = Role | 'visitor' | 'customer'
const cookies = new Map<Who, string | undefined>()
const rows = { lead: 0, newsletter: 0, experiment: 0 }

beforeAll(async () => {
  // one Owner per site (the database refuses a second): this file's own
  await env.DB.prepare(
    "UPDATE auth_users SET app_metadata = json_set(app_metadata, '$.role', 'admin') WHERE json_extract(app_metadata, '$.role') = 'owner'",
  ).run()
  for (const role of ROLES)
    cookies.set(role, (await person({ staff: role, secondFactor: true })).cookie)
  cookies.set('visitor', undefined)
  cookies.set('customer', (await person({ staff: false, secondFactor: true })).cookie)
  const email = unique('roles-lead')
  rows.lead = (await env.DB.prepare(
    `INSERT INTO contact_messages (name, email, service, message, language)
     VALUES ('Lena Lead', ?, 'amazon', 'Ads, please', 'en') RETURNING id`,
  )
    .bind(email)
    .first<number>('id'))!
  // an archived experiment (no text held, none to start or pick: its posts change nothing)
  rows.experiment = (await env.DB.prepare(
    `INSERT INTO experiments (target, seed, goal, status, winner, created_by)
     VALUES ('home.hero_title', 'roles', 'any_lead', 'archived', 'A', 'roles@example.org')
     RETURNING id`,
  ).first<number>('id'))!
  // a draft issue, as the desk makes one
  const made = await post('/desk/newsletters', {}, cookies.get('admin'))
  expect(made.status).toBe(303)
  rows.newsletter = Number(
    new URL(made.headers.get('Location')!, 'http://x').pathname.split('/')[3],
  )
  // with its English text, which its e-mail's preview needs
  const saved = await post(
    `/desk/newsletters/${rows.newsletter}`,
    { version: '1', tab: 'en', subject: 'Roles', body: 'Hello.', action: 'save' },
    cookies.get('admin'),
  )
  expect(saved.status).toBe(303)
}, 120_000)

describe('the desk by role', { timeout: 180_000 }, () => {
  it('has a permission for every route the router has, and no entry for a route it lacks', () => {
    const routes = deskRoutes()
    expect(routes.length).toBeGreaterThan(20)
    expect(
      routes.filter((r) => !(r in DESK_ROUTES)),
      'routes without a permission',
    ).toEqual([])
    expect(Object.keys(DESK_ROUTES).filter((r) => !routes.includes(r))).toEqual([])
    // a route for every method answers unchecked by the table: only the desk's middleware may
    expect(
      desk.routes.filter((r) => r.method === 'ALL' && r.path !== '/*').map((r) => r.path),
    ).toEqual([])
  })

  it('answers each route for each role as the table of roles says: allowed, else 404 for a page, 403 for a post or the CSV', async () => {
    const table: string[] = []
    for (const route of deskRoutes()) {
      const [method, pattern] = route.split(' ')
      const path = addressOf(pattern, rows)
      for (const [who, cookie] of cookies) {
        const allowed = mayUse(who, route)
        const res = method === 'GET' ? await get(path, cookie) : await post(path, {}, cookie)
        const body = await res.text()
        // a refusal is what a visitor gets: the not-found page for a page, 403 for a post (the
        // site's 403 page to a person) or the CSV. A page's rows exist (a GET allowed answers
        // 200 or sends on); a post's need not (allowed, the route may answer 404 or 400)
        const page = method === 'GET' && !path.endsWith('.csv')
        const refused = page
          ? res.status === 404 && body.includes(en.not_found.title)
          : res.status === 403
        const got =
          res.status >= 500
            ? `failed ${res.status}`
            : refused
              ? 'refused'
              : page && res.status !== 200 && res.status !== 302
                ? `answered ${res.status}`
                : 'allowed'
        table.push(`${who} ${route}: ${got}`)
        expect(
          got,
          `${who} ${method} ${path} ${res.status} ${body.match(/<title>[^<]*|<h1[^>]*>[^<]*/g)}`,
        ).toBe(allowed ? 'allowed' : 'refused')
      }
    }
    expect(table.length).toBe(deskRoutes().length * cookies.size)
  })

  it('shows each role only the sections of the bar its role opens, and sends it there from /desk', async () => {
    for (const role of ROLES) {
      const res = await get('/desk', cookies.get(role))
      const landing =
        res.status === 302 ? new URL(res.headers.get('Location')!, 'http://x').pathname : '/desk'
      const page = await get(landing, cookies.get(role))
      let html = await page.text()
      const every = [
        '/desk',
        '/desk/bookings',
        '/desk/mail',
        '/desk/visits',
        '/desk/speed',
        '/desk/content',
        '/desk/newsletters',
        '/desk/experiments',
        '/desk/team',
        '/desk/integrations',
        '/desk/history',
      ]
      const expected = {
        owner: every,
        admin: every,
        editor: [
          '/desk/visits',
          '/desk/speed',
          '/desk/content',
          '/desk/newsletters',
          '/desk/experiments',
        ],
        sales: ['/desk', '/desk/bookings', '/desk/mail', '/desk/visits'],
        writer: ['/desk/content'],
      }[role]
      // (the content desk opens on its articles)
      if (page.status === 302) {
        expect(page.headers.get('Location'), role).toBe('/desk/content/article')
        html = await (await get('/desk/content/article', cookies.get(role))).text()
      } else expect(page.status, role).toBe(200)
      const bar = html.slice(html.indexOf(`aria-label="${en.desk.eyebrow}"`)).split('</nav>')[0]
      const shown = [...bar.matchAll(/href="(\/desk[^"]*)"/g)].map((m) => m[1])
      expect(shown, role).toEqual(expected)
      expect(landing, role).toBe(expected[0] === '/desk' ? '/desk' : expected[0])
    }
  })

  it('keeps the Owner: their account is not deleted while it is the Owner’s, at either step', async () => {
    const owner = cookies.get('owner')
    for (const [path, fields] of [
      ['/auth/account/delete-code', {}],
      ['/auth/account/delete', { code: '123456' }],
    ] as const) {
      const res = await post(path, fields, owner)
      expect(res.headers.get('Location'), path).toBe('/account?error=owner_cannot_delete#delete')
    }
    const page = await get('/account?error=owner_cannot_delete', owner)
    expect(await page.text()).toContain(en.auth.errors.owner_cannot_delete.replace("'", '&#x27;'))
    expect((await get('/desk', owner)).status).toBe(200)
  })
})
