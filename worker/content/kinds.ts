import * as v from 'valibot'
import type { ContentKind } from '../db/content-kinds'

/**
 * What the desk edits (README: "Content"): five kinds (db/content-kinds.ts), each with the
 * fields no language changes (`shared`) and the fields each language has (`texts`). The desk's
 * forms, their validation and the public pages' types are all read from these lists.
 */
/** The FAQ page's groups, in order (their titles are interface strings: faq.group_titles); `pricing` is the pricing page's. */
export const FAQ_GROUPS = [
  'getting-started',
  'services',
  'billing',
  'working-together',
  'pricing',
] as const

export type FieldType =
  | 'text'
  | 'textarea'
  | 'markdown'
  | 'lines'
  | 'results'
  | 'price'
  | 'checkbox'
  | 'group'
  | 'category'
  | 'image'

export interface FieldSpec {
  name: string
  type: FieldType
  /** Characters at most (a number: its largest value). */
  max: number
  /** Characters at least, where it matters (a meta description's 50). */
  min?: number
  optional?: boolean
}

const f = (name: string, type: FieldType, max: number, more: Partial<FieldSpec> = {}) => ({
  name,
  type,
  max,
  ...more,
})

export const KIND_FIELDS: Record<ContentKind, { shared: FieldSpec[]; texts: FieldSpec[] }> = {
  article: {
    shared: [f('category', 'category', 40), f('cover', 'image', 80, { optional: true })],
    texts: [
      f('title', 'text', 120),
      f('excerpt', 'textarea', 300),
      f('description', 'textarea', 160, { min: 50 }),
      f('category_label', 'text', 60),
      f('author', 'text', 80),
      f('cover_alt', 'text', 200, { optional: true }),
      f('body', 'markdown', 100_000),
    ],
  },
  case: {
    shared: [f('cover', 'image', 80, { optional: true })],
    texts: [
      f('title', 'text', 120),
      f('client', 'text', 120),
      f('platform', 'text', 40),
      f('service', 'text', 60),
      f('challenge', 'textarea', 600),
      f('approach', 'textarea', 600),
      f('results', 'results', 60),
      f('quote', 'textarea', 400),
      f('quote_author', 'text', 120),
      f('cover_alt', 'text', 200, { optional: true }),
    ],
  },
  testimonial: {
    shared: [],
    texts: [
      f('name', 'text', 80),
      f('company', 'text', 80),
      f('role', 'text', 80),
      f('content', 'textarea', 600),
    ],
  },
  plan: {
    shared: [f('price', 'price', 1_000_000, { optional: true }), f('popular', 'checkbox', 1)],
    texts: [
      f('name', 'text', 60),
      f('for', 'textarea', 200),
      f('features', 'lines', 2000),
      f('price_label', 'text', 40, { optional: true }),
    ],
  },
  faq: {
    shared: [f('group', 'group', 40)],
    texts: [f('q', 'text', 200), f('a', 'textarea', 2000)],
  },
}

/** Three results a case shows (value and label each). */
export const RESULT_COUNT = 3

/** A slug: lower-case words joined by hyphens (an article's address, /blog/<slug>). */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

// a browser posts a textarea's line breaks as CRLF: stored as they were typed, so a save of
// an unchanged text changes nothing (the newsletters' body too: desk/newsletters.tsx)
export const lineBreaks = v.transform((s: string) => s.replace(/\r\n?/g, '\n'))

const text = (spec: FieldSpec) => {
  const base = v.pipe(v.string(), lineBreaks, v.trim(), v.maxLength(spec.max))
  return spec.optional
    ? v.optional(base, '')
    : v.pipe(base, v.minLength(spec.min ?? 1), v.maxLength(spec.max))
}

/** Markdown as written: its trailing line break is part of it (nothing to trim). */
const markdown = (spec: FieldSpec) =>
  v.pipe(
    v.string(),
    lineBreaks,
    v.maxLength(spec.max),
    v.check((s) => s.trim() !== ''),
  )

/** The valibot schema of one field as the form posts it (strings), to what is stored. */
function fieldSchema(spec: FieldSpec): v.GenericSchema<unknown, unknown> {
  switch (spec.type) {
    case 'checkbox':
      return v.pipe(
        v.optional(v.string(), ''),
        v.transform((s) => s === '1'),
      )
    case 'price':
      return v.pipe(
        v.optional(v.pipe(v.string(), v.trim()), ''),
        v.check((s) => s === '' || (/^\d{1,7}$/.test(s) && Number(s) <= spec.max)),
        v.transform((s) => (s === '' ? null : Number(s))),
      )
    case 'group':
      return v.picklist(FAQ_GROUPS)
    case 'category':
      return v.pipe(v.string(), v.trim(), v.maxLength(spec.max), v.regex(SLUG))
    case 'image':
      return v.optional(
        v.pipe(v.string(), v.trim(), v.regex(/^([0-9a-f]{32}\.(jpg|png|webp))?$/)),
        '',
      )
    case 'lines':
      return v.pipe(
        text(spec),
        v.transform((s) =>
          s
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
        ),
        v.minLength(1),
      )
    case 'markdown':
      return markdown(spec)
    default:
      return text(spec)
  }
}

/** The form's field names of a case's results: result_1_value, result_1_label, … */
const resultName = (i: number, part: 'value' | 'label') => `result_${i + 1}_${part}`

/**
 * The posted form's fields of this kind's `which` part, checked; each issue is valibot's type
 * of it (min_length, max_length, regex…), which the desk words in its language.
 */
export function readFields(
  kind: ContentKind,
  which: 'shared' | 'texts',
  form: Record<string, string>,
): { ok: true; fields: Record<string, unknown> } | { ok: false; issues: Record<string, string> } {
  const fields: Record<string, unknown> = {}
  const issues: Record<string, string> = {}
  for (const spec of KIND_FIELDS[kind][which]) {
    if (spec.type === 'results') {
      const results = []
      for (let i = 0; i < RESULT_COUNT; i++) {
        const value = v.safeParse(text(spec), form[resultName(i, 'value')] ?? '')
        const label = v.safeParse(text(spec), form[resultName(i, 'label')] ?? '')
        if (!value.success) issues[resultName(i, 'value')] = 'required'
        if (!label.success) issues[resultName(i, 'label')] = 'required'
        if (value.success && label.success)
          results.push({ value: value.output, label: label.output })
      }
      fields[spec.name] = results
      continue
    }
    const raw = form[spec.name] ?? ''
    const parsed = v.safeParse(fieldSchema(spec), raw)
    if (parsed.success) fields[spec.name] = parsed.output
    else issues[spec.name] = !spec.optional && !raw.trim() ? 'required' : parsed.issues[0].type
  }
  return Object.keys(issues).length ? { ok: false, issues } : { ok: true, fields }
}

export { resultName }

/**
 * The inverse of readFields: stored fields of this kind's `which` part as the form shows them
 * (a list one per line, a case's results in their pairs, a price's digits, a box's '1'), so
 * the editor opens with what is stored and posting it back unchanged stores the same.
 */
export function formValues(
  kind: ContentKind,
  which: 'shared' | 'texts',
  stored: Record<string, unknown>,
): Record<string, string> {
  const values: Record<string, string> = {}
  for (const spec of KIND_FIELDS[kind][which]) {
    const value = stored[spec.name]
    if (spec.type === 'results') {
      if (Array.isArray(value))
        (value as { value?: unknown; label?: unknown }[]).forEach((r, i) => {
          values[resultName(i, 'value')] = String(r.value ?? '')
          values[resultName(i, 'label')] = String(r.label ?? '')
        })
    } else if (spec.type === 'lines')
      values[spec.name] = Array.isArray(value) ? value.map(String).join('\n') : String(value ?? '')
    else if (spec.type === 'checkbox') values[spec.name] = value === true ? '1' : ''
    else if (spec.type === 'image')
      values[spec.name] =
        value && typeof value === 'object' ? String((value as { name?: string }).name ?? '') : ''
    else values[spec.name] = value === null || value === undefined ? '' : String(value)
  }
  return values
}

/**
 * The pages' cache tags: a page that shows a kind is cached under its generation
 * (content/generations.ts); routes.ts says which page shows which. `experiments`: the running
 * experiments and the texts past winners made the pages' own (experiments/state.ts).
 */
export type ContentTag = ContentKind | 'experiments'
