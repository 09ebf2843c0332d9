/**
 * What the content tables hold (migrations/0013_create_content.sql): the kinds of content and
 * an item's statuses. A module of its own, without D1: the desk's forms, the pages and the
 * browser tests read these lists too.
 */

/** The kinds (content/kinds.ts: the fields of each). */
export const CONTENT_KINDS = ['article', 'case', 'testimonial', 'plan', 'faq'] as const
export type ContentKind = (typeof CONTENT_KINDS)[number]
export const isContentKind = (s: string): s is ContentKind =>
  (CONTENT_KINDS as readonly string[]).includes(s)

/** An item's status: published ones are what the pages show. */
export const STATUSES = ['draft', 'scheduled', 'published', 'unpublished'] as const
export type ContentStatus = (typeof STATUSES)[number]
