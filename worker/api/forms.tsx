import type { Context } from 'hono'
import * as v from 'valibot'
import { fieldIssues } from '../../client/schemas/leads'
import type { AppEnv } from '../env'
import { isMessageKey, type MessageKey } from '../i18n/translator'
import { formResult } from '../components/form-result'

/** The schemas' issue codes name strings under `errors`; anything else reads as invalid. */
const errorKey = (code: string | undefined): MessageKey => {
  const key = `errors.${code}`
  return isMessageKey(key) ? key : 'errors.invalid'
}

/**
 * Shared by the form endpoints: islands post JSON and get JSON; the same forms posted without
 * JavaScript (urlencoded) get a page saying what happened.
 */
export type Mode = 'json' | 'form'

/**
 * A urlencoded form post's fields (of a repeated name, the last). Read as bytes: workerd warns
 * on `.text()` of a body that is not typed as text, once for every form post.
 */
export const formFields = async (c: Context<AppEnv>) =>
  Object.fromEntries(new URLSearchParams(new TextDecoder().decode(await c.req.arrayBuffer())))

/** A urlencoded form post checked against the schema: its output, or null when it does not fit. */
export async function readForm<S extends v.GenericSchema>(c: Context<AppEnv>, schema: S) {
  const parsed = v.safeParse(schema, await formFields(c))
  return parsed.success ? (parsed.output as v.InferOutput<S>) : null
}
type Parsed<T> =
  | { ok: true; mode: Mode; data: T }
  | { ok: false; res: Response | Promise<Response> }

export async function parse<S extends v.GenericSchema>(
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
    body = await formFields(c)
  } else {
    return { ok: false, res: c.json({ error: c.var.t('errors.unsupported_type') }, 415) }
  }
  const result = v.safeParse(schema, body)
  if (result.success) return { ok: true, mode, data: result.output }
  const fields = fieldIssues(result.issues)
  const keys = Object.values(fields)
  // Empty fields read best as one sentence; otherwise the first field's own problem.
  const error = c.var.t(errorKey(keys.includes('required') ? 'required' : keys[0]))
  const localized = Object.fromEntries(
    Object.entries(fields).map(([f, k]) => [f, c.var.t(errorKey(k))]),
  )
  if (mode === 'form')
    return { ok: false, res: formResult(c, 400, c.var.t('notices.error_title'), error) }
  return { ok: false, res: c.json({ error, fields: localized }, 400) }
}

/** D1 failing must never surface as a 500: the visitor learns to retry, nothing is half-stored. */
export async function store<T>(
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

export const isBot = (data: { website?: string }) => Boolean(data.website?.trim())
