import type { ContentKind, ContentStatus } from '../db/content-kinds'
import { can, type Role } from '../roles'

/**
 * Which content a staff member may open and change: the one place the content desk's handlers
 * ask (desk/content.tsx). Those who write content (content.write) everything; a Writer
 * (content.draft) only their own drafts of articles and case studies, new ones, and only until
 * they send one for review. Anything else answers as to a visitor (404 page, 403 post).
 */

/** The kinds a Writer drafts. */
const WRITER_KINDS: readonly ContentKind[] = ['article', 'case']

/** Whether the role opens this kind's list and makes new items of it. */
export const mayList = (role: Role | undefined, kind: ContentKind) =>
  can(role, 'content.write') || (can(role, 'content.draft') && WRITER_KINDS.includes(kind))

interface Item {
  /** 0: a new item, not saved yet. */
  id: number
  kind: ContentKind
  status: ContentStatus
  author_id: string | null
}

/** Whether `account` (of `role`) may open and save this item. */
export const mayEdit = (role: Role | undefined, account: { id: string } | undefined, item: Item) =>
  can(role, 'content.write') ||
  (mayList(role, item.kind) &&
    (item.id === 0 || (item.author_id === account?.id && item.status === 'draft')))

/**
 * Whether the item is read-only to this role because it waits for review: a Writer's draft
 * sent for review is the reviewers' until they publish it or send it back.
 */
export const lockedInReview = (role: Role | undefined, item: { review_at: string | null }) =>
  item.review_at !== null && !can(role, 'content.write')

/** A reviewer's note, sending a draft back, is at most this long (characters). */
export const REVIEW_NOTE_MAX = 1000
