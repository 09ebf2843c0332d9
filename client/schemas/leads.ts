import * as v from 'valibot'
import { challengeFields } from './challenge'

/**
 * Request bodies of the lead forms, shared by the worker (the authority) and the islands (to
 * answer at once). Issue messages are keys under `errors.` in locales.
 */
export const GUIDE_SLUGS = [
  'invisible-business-mistakes',
  'social-media-growth-kit',
  'conversion-masterclass',
] as const
export type GuideSlug = (typeof GUIDE_SLUGS)[number]

export const BUDGETS = ['under_1k', '1k_5k', '5k_15k', 'over_15k'] as const

const required = (max: number) =>
  v.pipe(v.string('invalid'), v.trim(), v.nonEmpty('required'), v.maxLength(max, 'too_long'))

const email = v.pipe(
  v.string('invalid'),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty('required'),
  v.maxLength(254, 'too_long'),
  v.email('invalid_email'),
)

/** Hidden field people never see; bots fill it in. */
const honeypot = v.optional(v.string('invalid'))

export const EmailSignupSchema = v.strictObject(
  {
    name: required(100),
    email,
    // the popup's island sends it; its form, posted by the browser itself, has no such field
    source: v.optional(v.literal('website', 'invalid'), 'website'),
    website: honeypot,
    ...challengeFields,
  },
  'invalid',
)

export const NewsletterSchema = v.strictObject(
  { email, website: honeypot, ...challengeFields },
  'invalid',
)

export const GuideRequestSchema = v.strictObject(
  {
    name: required(100),
    email,
    guide: v.picklist(GUIDE_SLUGS, 'invalid'),
    website: honeypot,
    ...challengeFields,
  },
  'invalid',
)

export const ContactSchema = v.strictObject(
  {
    name: required(100),
    email,
    company: v.optional(v.pipe(v.string('invalid'), v.trim(), v.maxLength(120, 'too_long'))),
    // a service slug or 'other'; the worker checks it against its list
    service: v.pipe(
      v.string('invalid'),
      v.trim(),
      v.nonEmpty('required'),
      v.regex(/^[a-z-]{2,40}$/, 'invalid'),
    ),
    budget: v.optional(v.union([v.literal(''), v.picklist(BUDGETS)], 'invalid')),
    message: required(5000),
    website: honeypot,
  },
  'invalid',
)

export type FieldErrors = Record<string, string>

/** The first issue per field, as `{ field: messageKey }`. */
export function fieldIssues(issues: v.BaseIssue<unknown>[]): FieldErrors {
  const out: FieldErrors = {}
  for (const issue of issues) {
    const field = issue.path?.map((p) => String(p.key)).join('.') || '_'
    out[field] ??= issue.message
  }
  return out
}
