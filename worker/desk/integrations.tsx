import { fromZonedTime } from 'date-fns-tz'
import { Hono, type Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import * as v from 'valibot'
import { httpOnlyCookie, isHttps } from '../cookies'
import { formFields } from '../api/forms'
import { audit } from '../db/desk'
import {
  deleteEndpoint,
  findDelivery,
  findEndpoint,
  FORMATS,
  insertEndpoint,
  listAttempts,
  listEndpoints,
  setEndpointEnabled,
  updateEndpoint,
  type EndpointFields,
  type LogCursor,
} from '../db/webhook-endpoints'
import type { AppEnv } from '../env'
import { zonedFieldValue } from '../i18n/format'
import { limitBody, sameSiteOnly } from '../middleware/form-guard'
import {
  EVENT_TYPES,
  isAllowedUrl,
  newSecret,
  replayDelivery,
  replayFailedSince,
  rotateSecret,
  sendTestEvent,
  shownUrl,
} from '../webhooks'
import {
  DeskIntegrationsLogPage,
  DeskIntegrationsPage,
  INTEGRATION_DONE,
  INTEGRATION_ERRORS,
  LOG_DONE,
  LOG_ERRORS,
  type EndpointForm,
  type FieldErrors,
  type IntegrationError,
  type LogError,
  type LogQuery,
  type ShownSecret,
} from './pages/integrations'
import { deskTitle, staffOf } from './staff'

/**
 * /desk/integrations (Owner and Admins: integrations.manage, route-permissions.ts): the agency's
 * webhook endpoints (added, changed, on and off, removed, tested, their secret rotated) and the
 * delivery log (every attempt, failures, replays). The engine that signs and delivers is
 * worker/webhooks/. Each change is in the history (desk_audit), in the change's batch where
 * the change is a statement of ours.
 */
export const deskIntegrations = new Hono<AppEnv>()

const head = (c: Context<AppEnv>, title: string) => ({
  title: deskTitle(c, title),
  description: c.var.t('desk.description'),
  workspace: true,
})

const EndpointId = v.pipe(v.string(), v.regex(/^\d{1,12}$/), v.transform(Number))
const endpointIdOf = (c: Context<AppEnv>) => {
  const id = v.safeParse(EndpointId, c.req.param('id'))
  return id.success ? id.output : null
}

async function integrationsPage(
  c: Context<AppEnv>,
  options: {
    created?: EndpointForm
    edited?: { id: number; form: EndpointForm }
    errors?: FieldErrors
    error?: IntegrationError
    secret?: ShownSecret
    status?: 200 | 404 | 409 | 422 | 503
  } = {},
) {
  const endpoints = await listEndpoints(c.env.DB)
  const done = INTEGRATION_DONE.find((d) => d === c.req.query('done'))
  const error = options.error ?? INTEGRATION_ERRORS.find((e) => e === c.req.query('error'))
  c.status(options.status ?? 200)
  return c.render(
    <DeskIntegrationsPage
      endpoints={endpoints}
      now={new Date().toISOString()}
      eventTypes={EVENT_TYPES}
      done={options.secret || options.errors ? undefined : done}
      error={error}
      created={options.created}
      edited={options.edited}
      errors={options.errors}
      secret={options.secret}
    />,
    head(c, c.var.t('desk.nav.integrations')),
  )
}

/**
 * A new secret waits for the page after the post (POST, then a redirect, then GET: a reload never
 * posts the form again, nor makes a second endpoint) in a cookie of its own, HttpOnly, for this
 * page only and five minutes at most, read once and deleted: shown once, never in an address.
 */
const SECRET_COOKIE = 'desk-new-secret'
const SECRET_PATH = '/desk/integrations'

const showSecretNext = (c: Context<AppEnv>, secret: ShownSecret) => {
  setCookie(c, SECRET_COOKIE, JSON.stringify(secret), httpOnlyCookie(c, SECRET_PATH, 300))
  return c.redirect(SECRET_PATH, 303)
}

const ShownSecretCookie = v.object({
  url: v.string(),
  secret: v.pipe(v.string(), v.startsWith('whsec_')),
  rotated: v.boolean(),
})

function takeSecret(c: Context<AppEnv>): ShownSecret | undefined {
  const raw = getCookie(c, SECRET_COOKIE)
  if (raw === undefined) return undefined
  deleteCookie(c, SECRET_COOKIE, { path: SECRET_PATH, secure: isHttps(c) })
  try {
    const parsed = v.safeParse(ShownSecretCookie, JSON.parse(raw))
    return parsed.success ? parsed.output : undefined
  } catch {
    return undefined
  }
}

deskIntegrations.get('/', (c) => {
  const secret = takeSecret(c)
  return integrationsPage(c, secret ? { secret } : {})
})

const back = (c: Context<AppEnv>, outcome: { done: string } | { error: IntegrationError }) =>
  c.redirect(`/desk/integrations?${new URLSearchParams(outcome)}`, 303)

const Endpoint = v.object({
  url: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(2000)),
  events: v.pipe(v.array(v.picklist(EVENT_TYPES)), v.minLength(1)),
  format: v.picklist(FORMATS),
  personal: v.boolean(),
  description: v.pipe(v.string(), v.trim(), v.maxLength(200)),
})

/**
 * The endpoint form as posted (its events are checkboxes of one name, so the fields are read
 * as a list, not an object): what was typed, to show it again, and either the settings to
 * save, with the URL as the address guard has it, or each field's problem.
 */
async function readEndpointForm(
  c: Context<AppEnv>,
): Promise<{ typed: EndpointForm } & ({ fields: EndpointFields } | { errors: FieldErrors })> {
  const posted = new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer()))
  const typed: EndpointForm = {
    url: (posted.get('url') ?? '').slice(0, 2000),
    events: [...new Set(posted.getAll('events'))].slice(0, 20),
    format: posted.get('format') ?? '',
    personal: posted.get('personal') === '1',
    description: (posted.get('description') ?? '').slice(0, 200),
  }
  const parsed = v.safeParse(Endpoint, {
    ...typed,
    url: posted.get('url') ?? '',
    description: posted.get('description') ?? '',
  })
  if (!parsed.success) {
    const errors: FieldErrors = {}
    for (const issue of parsed.issues) {
      const field = String(issue.path?.[0]?.key ?? 'url') as keyof FieldErrors
      if (field === 'url') errors.url ??= typed.url.trim() ? 'too_long' : 'missing'
      else errors[field] ??= 'invalid'
    }
    return { typed, errors }
  }
  // refused when saved (and again when sent, by the engine): only the internet
  const checked = await isAllowedUrl(parsed.output.url, c.env)
  if (!checked.ok) return { typed, errors: { url: checked.reason } }
  return { typed, fields: { ...parsed.output, url: checked.url.href } }
}

deskIntegrations.post('/', sameSiteOnly(), limitBody(8192), async (c) => {
  const form = await readEndpointForm(c)
  if ('errors' in form)
    return integrationsPage(c, { created: form.typed, errors: form.errors, status: 422 })
  const { fields } = form
  const db = c.env.DB
  const staff = staffOf(c)
  const secret = newSecret()
  await db.batch([
    insertEndpoint(db, fields, secret, staff.email),
    // the history's row names the endpoint just made (found by its secret, which it alone has)
    db
      .prepare(
        `INSERT INTO desk_audit (actor_id, actor_email, action, target, detail)
         SELECT ?, ?, 'integration.create', 'integration/' || id, ?
         FROM webhook_endpoints WHERE secret = ?`,
      )
      .bind(staff.id, staff.email, JSON.stringify(summary(fields)), secret),
  ])
  // shown on the next page only: never in an address, never again afterwards
  return showSecretNext(c, { url: fields.url, secret, rotated: false })
})

/** What the history keeps of an endpoint's settings (never its secret). */
const summary = (f: EndpointFields) => ({
  url: shownUrl(f.url),
  events: f.events,
  format: f.format,
  personal: f.personal,
})

deskIntegrations.post('/:id{[0-9]+}', sameSiteOnly(), limitBody(8192), async (c) => {
  const id = endpointIdOf(c)
  const db = c.env.DB
  if (id === null || !(await findEndpoint(db, id))) return back(c, { error: 'not_found' })
  const form = await readEndpointForm(c)
  if ('errors' in form)
    return integrationsPage(c, {
      edited: { id, form: form.typed },
      errors: form.errors,
      status: 422,
    })
  const [updated] = await db.batch([
    updateEndpoint(db, id, form.fields),
    audit(db, staffOf(c), 'integration.update', `integration/${id}`, summary(form.fields), true),
  ])
  if (!updated.results.length) return back(c, { error: 'not_found' })
  return back(c, { done: 'saved' })
})

const Toggle = v.object({ enabled: v.picklist(['0', '1']) })

deskIntegrations.post('/:id{[0-9]+}/toggle', sameSiteOnly(), limitBody(1024), async (c) => {
  const id = endpointIdOf(c)
  const input = v.safeParse(Toggle, await formFields(c))
  const db = c.env.DB
  const endpoint = id === null ? null : await findEndpoint(db, id)
  if (!endpoint || id === null) return back(c, { error: 'not_found' })
  if (!input.success) return back(c, { error: 'invalid' })
  const enabled = input.output.enabled === '1'
  // (from the state the page showed: another tab, or the engine, may have turned it already)
  await db.batch([
    setEndpointEnabled(db, id, enabled),
    audit(
      db,
      staffOf(c),
      'integration.toggle',
      `integration/${id}`,
      { url: shownUrl(endpoint.url), enabled },
      true,
    ),
  ])
  return back(c, { done: enabled ? 'enabled' : 'disabled' })
})

deskIntegrations.post('/:id{[0-9]+}/delete', sameSiteOnly(), limitBody(1024), async (c) => {
  const id = endpointIdOf(c)
  const db = c.env.DB
  const endpoint = id === null ? null : await findEndpoint(db, id)
  if (!endpoint || id === null) return back(c, { error: 'not_found' })
  const [deleted] = await db.batch([
    deleteEndpoint(db, id),
    audit(
      db,
      staffOf(c),
      'integration.delete',
      `integration/${id}`,
      { url: shownUrl(endpoint.url) },
      true,
    ),
  ])
  if (!deleted.results.length) return back(c, { error: 'not_found' })
  return back(c, { done: 'deleted' })
})

deskIntegrations.post('/:id{[0-9]+}/rotate', sameSiteOnly(), limitBody(1024), async (c) => {
  const id = endpointIdOf(c)
  const db = c.env.DB
  const endpoint = id === null ? null : await findEndpoint(db, id)
  if (!endpoint || id === null) return back(c, { error: 'not_found' })
  const secret = await rotateSecret(db, id)
  if (!secret) return back(c, { error: 'not_found' })
  await audit(db, staffOf(c), 'integration.rotate', `integration/${id}`, {
    url: shownUrl(endpoint.url),
  }).run()
  // the new secret on the next page only, as when the endpoint was made
  return showSecretNext(c, { url: endpoint.url, secret, rotated: true })
})

deskIntegrations.post('/:id{[0-9]+}/test', sameSiteOnly(), limitBody(1024), async (c) => {
  const id = endpointIdOf(c)
  const db = c.env.DB
  const endpoint = id === null ? null : await findEndpoint(db, id)
  if (!endpoint || id === null) return back(c, { error: 'not_found' })
  // an endpoint that is off gets nothing, a test neither: said, rather than a test never sent
  if (!endpoint.enabled) return back(c, { error: 'test_off' })
  let delivery: number | null
  try {
    delivery = await sendTestEvent(c.env, c.executionCtx, id)
  } catch (err) {
    console.error('desk: test event not queued', err)
    return back(c, { error: 'unavailable' })
  }
  // (removed meanwhile)
  if (delivery === null) return back(c, { error: 'not_found' })
  await audit(db, staffOf(c), 'integration.test', `integration/${id}`, {
    url: shownUrl(endpoint.url),
    delivery,
  }).run()
  return back(c, { done: 'test_sent' })
})

// The delivery log

const PAGE_SIZE = 50

const LogParams = v.object({
  show: v.optional(v.picklist(['all', 'failures'])),
  endpoint: v.optional(EndpointId),
})

const Cursor = v.tuple([
  v.pipe(v.string(), v.isoTimestamp()),
  v.pipe(v.string(), v.regex(/^\d{1,15}$/), v.transform(Number)),
])
const writeCursor = (c: LogCursor) => `${c.at}~${c.id}`
function readCursor(raw: string | undefined): LogCursor | null {
  const parsed = v.safeParse(Cursor, raw?.split('~'))
  return parsed.success ? { at: parsed.output[0], id: parsed.output[1] } : null
}

deskIntegrations.get('/log', async (c) => {
  const raw = Object.fromEntries(
    Object.entries(c.req.query()).filter(
      ([name, value]) => value !== '' && (name === 'show' || name === 'endpoint'),
    ),
  )
  const parsed = v.safeParse(LogParams, raw)
  const query: LogQuery = raw
  const db = c.env.DB
  const endpoints = await listEndpoints(db)
  const t = c.var.t
  const done = LOG_DONE.find((d) => d === c.req.query('done'))
  const count = Number(c.req.query('n'))
  const page = (props: {
    rows: Awaited<ReturnType<typeof listAttempts>>['rows']
    next: string | null
    error?: LogError
  }) =>
    c.render(
      <DeskIntegrationsLogPage
        query={query}
        now={new Date().toISOString()}
        endpoints={endpoints}
        done={done}
        count={Number.isSafeInteger(count) && count >= 0 ? count : undefined}
        {...props}
      />,
      head(c, t('desk_integrations.log.title')),
    )
  if (!parsed.success) {
    c.status(400)
    return page({ rows: [], next: null, error: 'filter' })
  }
  const error = LOG_ERRORS.find((e) => e === c.req.query('error'))
  const { rows, next } = await listAttempts(
    db,
    { failures: parsed.output.show === 'failures', endpoint: parsed.output.endpoint },
    readCursor(c.req.query('after')),
    PAGE_SIZE,
  )
  return page({ rows, next: next && writeCursor(next), error })
})

const backToLog = (c: Context<AppEnv>, outcome: Record<string, string>) =>
  c.redirect(`/desk/integrations/log?${new URLSearchParams(outcome)}`, 303)

deskIntegrations.post(
  '/log/deliveries/:id{[0-9]+}/replay',
  sameSiteOnly(),
  limitBody(1024),
  async (c) => {
    const id = v.safeParse(EndpointId, c.req.param('id'))
    const db = c.env.DB
    const delivery = id.success ? await findDelivery(db, id.output) : null
    if (!delivery) return backToLog(c, { error: 'not_found' })
    let replayed: boolean
    try {
      replayed = await replayDelivery(c.env, c.executionCtx, delivery.id)
    } catch (err) {
      console.error('desk: replay not queued', err)
      return backToLog(c, { error: 'unavailable' })
    }
    // its endpoint off (nothing would be sent), or removed meanwhile with the delivery
    if (!replayed) {
      const still = await findDelivery(db, delivery.id)
      return backToLog(c, { error: still ? 'replay_off' : 'not_found' })
    }
    await audit(db, staffOf(c), 'integration.replay', `integration/${delivery.endpoint_id}`, {
      delivery: delivery.id,
      type: delivery.event_type,
    }).run()
    return backToLog(c, { done: 'replayed' })
  },
)

/** A datetime-local field's value: a minute of the agency's zone. */
const LocalMinute = v.pipe(v.string(), v.regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/))
const ReplaySince = v.object({ since: LocalMinute })

deskIntegrations.post('/log/replay-failed', sameSiteOnly(), limitBody(1024), async (c) => {
  const input = v.safeParse(ReplaySince, await formFields(c))
  if (!input.success) return backToLog(c, { error: 'since' })
  const since = fromZonedTime(input.output.since, c.var.config.timeZone)
  // a minute the calendar has (not 30 February, not one a clock change skips), not one to come
  const zone = c.var.config.timeZone
  if (
    Number.isNaN(since.getTime()) ||
    zonedFieldValue(since.toISOString(), zone) !== input.output.since ||
    since.getTime() > Date.now()
  )
    return backToLog(c, { error: 'since' })
  const sinceIso = since.toISOString()
  let queued: number
  try {
    queued = await replayFailedSince(c.env, c.executionCtx, sinceIso)
  } catch (err) {
    console.error('desk: failed deliveries not replayed', err)
    return backToLog(c, { error: 'unavailable' })
  }
  await audit(c.env.DB, staffOf(c), 'integration.replay_failed', null, {
    since: sinceIso,
    count: queued,
  }).run()
  return backToLog(c, { done: 'replayed_failed', n: String(queued) })
})
