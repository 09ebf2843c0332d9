import * as v from 'valibot'
import { LANGS } from '../../client/lib/languages'
import { LEAD_KINDS, type Cursor, type LeadFilter } from '../db/desk'

/** The inbox's query string: each field checked on its own; a bad one is simply left out. */
const fields = {
  kind: v.picklist(LEAD_KINDS),
  status: v.picklist(['pending', 'confirmed', 'unsubscribed', 'handled', 'open']),
  language: v.picklist(LANGS),
  service: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,40}$/)),
  from: v.pipe(v.string(), v.isoDate()),
  to: v.pipe(v.string(), v.isoDate()),
  q: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(100)),
}

export const STATUSES = fields.status.options

export function readFilter(query: Record<string, string>): LeadFilter {
  const filter: Record<string, string> = {}
  for (const [name, schema] of Object.entries(fields)) {
    const parsed = v.safeParse(schema, query[name])
    if (parsed.success) filter[name] = parsed.output
  }
  return filter as LeadFilter
}

/** The filter as a query string (links to the next page, the CSV of the same view). */
export const filterQuery = (filter: LeadFilter, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    ...(Object.fromEntries(Object.entries(filter).filter(([, value]) => value)) as Record<
      string,
      string
    >),
    ...extra,
  }).toString()

const CursorSchema = v.tuple([
  v.pipe(v.string(), v.isoTimestamp()),
  v.picklist(LEAD_KINDS),
  v.pipe(v.string(), v.transform(Number), v.integer()),
])

export const writeCursor = (c: Cursor) => `${c.at}~${c.kind}~${c.id}`

export function readCursor(raw: string | undefined): Cursor | null {
  const parsed = v.safeParse(CursorSchema, raw?.split('~'))
  return parsed.success
    ? { at: parsed.output[0], kind: parsed.output[1], id: parsed.output[2] }
    : null
}
