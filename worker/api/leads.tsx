import { Hono, type Context } from 'hono'
import * as v from 'valibot'
import {
  ContactSchema,
  EmailSignupSchema,
  fieldIssues,
  GuideRequestSchema,
  NewsletterSchema,
} from '../../client/schemas/leads'
import { findService } from '../data/services'
import { addContactMessage, addGuideRequest, addSubscriber } from '../db/leads'
import type { AppEnv } from '../env'
import { formGuard } from '../middleware/form-guard'
import { FormResultPage } from '../pages/form-result'
import { guideUrl } from '../pages/guide'

/**
 * The lead endpoints (SPEC §7 and its siblings). Islands post JSON and get JSON; the same
 * forms posted without JavaScript (urlencoded) get a page saying what happened.
 */
export const leads = new Hono<AppEnv>()
leads.use(...formGuard())

type Mode = 'json' | 'form'
type Parsed<T> =
  { ok: true; mode: Mode; data: T } | { ok: false; res: Response | Promise<Response> }

async function parse<S extends v.GenericSchema>(
  c: Context<AppEnv>,
  schema: S,
  { formAllowed }: { formAllowed: boolean },
): Promise<Parsed<v.InferOutput<S>>> {
  const type = c.req.header('Content-Type') ?? ''
  let mode: Mode
  let body: unknown
  if (type.startsWith('application/json')) {
    mode = 'json'
    try {
      body = await c.req.json()
    } catch {
      return { ok: false, res: c.json({ error: c.var.t('errors.invalid') }, 400) }
    }
  } else if (formAllowed && type.startsWith('application/x-www-form-urlencoded')) {
    mode = 'form'
    body = Object.fromEntries(new URLSearchParams(await c.req.text()))
  } else {
    return { ok: false, res: c.json({ error: c.var.t('errors.unsupported_type') }, 415) }
  }
  const result = v.safeParse(schema, body)
  if (result.success) return { ok: true, mode, data: result.output }
  const fields = fieldIssues(result.issues)
  const keys = Object.values(fields)
  // Empty fields read best as one sentence; otherwise the first field's own problem.
  const error = c.var.t(
    `errors.${keys.includes('required') ? 'required' : keys[0]}`,
    undefined,
    c.var.t('errors.invalid'),
  )
  const localized = Object.fromEntries(
    Object.entries(fields).map(([f, k]) => [f, c.var.t(`errors.${k}`)]),
  )
  if (mode === 'form')
    return { ok: false, res: formResult(c, 400, c.var.t('notices.error_title'), error) }
  return { ok: false, res: c.json({ error, fields: localized }, 400) }
}

function formResult(
  c: Context<AppEnv>,
  status: 200 | 400 | 503,
  title: string,
  text: string,
  download?: string,
) {
  c.status(status)
  return c.render(<FormResultPage title={title} text={text} download={download} />, {
    title: `${title} | ${c.var.t('meta.title_suffix')}`,
    description: text,
  }) as Response | Promise<Response>
}

/** D1 failing must never surface as a 500: the visitor learns to retry, nothing is half-stored. */
async function store<T>(
  c: Context<AppEnv>,
  mode: Mode,
  write: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; res: Response | Promise<Response> }> {
  try {
    return { ok: true, value: await write() }
  } catch (err) {
    console.error('D1 write failed', err)
    const error = c.var.t('errors.unavailable')
    c.header('Retry-After', '30')
    return {
      ok: false,
      res:
        mode === 'form'
          ? formResult(c, 503, c.var.t('notices.error_title'), error)
          : c.json({ error }, 503),
    }
  }
}

const isBot = (data: { website?: string }) => Boolean(data.website?.trim())

leads.post('/email-signup', async (c) => {
  const parsed = await parse(c, EmailSignupSchema, { formAllowed: false })
  if (!parsed.ok) return parsed.res
  const { name, email, source } = parsed.data
  // Bots get the answer a person would, and nothing is stored.
  if (isBot(parsed.data)) return c.json({ alreadySubscribed: false })
  const saved = await store(c, 'json', () =>
    addSubscriber(c.env.DB, { email, name, source, form: 'welcome_popup', language: c.var.lang }),
  )
  if (!saved.ok) return saved.res
  return c.json(saved.value)
})

leads.post('/newsletter', async (c) => {
  const parsed = await parse(c, NewsletterSchema, { formAllowed: true })
  if (!parsed.ok) return parsed.res
  const { mode, data } = parsed
  let result = { alreadySubscribed: false }
  if (!isBot(data)) {
    const saved = await store(c, mode, () =>
      addSubscriber(c.env.DB, {
        email: data.email,
        name: null,
        source: 'website',
        form: 'newsletter',
        language: c.var.lang,
      }),
    )
    if (!saved.ok) return saved.res
    result = saved.value
  }
  if (mode === 'json') return c.json(result)
  const t = c.var.t
  return result.alreadySubscribed
    ? formResult(
        c,
        200,
        t('notices.newsletter_already_title'),
        t('notices.newsletter_already_text'),
      )
    : formResult(c, 200, t('notices.newsletter_title'), t('notices.newsletter_text'))
})

leads.post('/guide-requests', async (c) => {
  const parsed = await parse(c, GuideRequestSchema, { formAllowed: true })
  if (!parsed.ok) return parsed.res
  const { mode, data } = parsed
  let result = { alreadySubscribed: false }
  if (!isBot(data)) {
    const saved = await store(c, mode, () =>
      addGuideRequest(c.env.DB, {
        email: data.email,
        name: data.name,
        guide: data.guide,
        language: c.var.lang,
      }),
    )
    if (!saved.ok) return saved.res
    result = saved.value
  }
  const downloadUrl = guideUrl(data.guide, c.var.lang, true)
  if (mode === 'json') return c.json({ ...result, downloadUrl })
  const t = c.var.t
  const title = t(`guides.${data.guide}.title`)
  return formResult(
    c,
    200,
    t('notices.download_title'),
    t('notices.download_text', { title }),
    downloadUrl,
  )
})

leads.post('/contact', async (c) => {
  const parsed = await parse(c, ContactSchema, { formAllowed: true })
  if (!parsed.ok) return parsed.res
  const { mode, data } = parsed
  const t = c.var.t
  if (data.service !== 'other' && !findService(data.service)) {
    const error = t('errors.invalid')
    return mode === 'json'
      ? c.json({ error, fields: { service: error } }, 400)
      : formResult(c, 400, t('notices.error_title'), error)
  }
  if (!isBot(data)) {
    const saved = await store(c, mode, () =>
      addContactMessage(c.env.DB, { ...data, language: c.var.lang }),
    )
    if (!saved.ok) return saved.res
  }
  if (mode === 'json') return c.json({ ok: true })
  return formResult(c, 200, t('notices.contact_title'), t('notices.contact_text'))
})
