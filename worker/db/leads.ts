import type * as v from 'valibot'
import type { ContactSchema, GuideSlug } from '../../client/schemas/leads'
import { insertRow } from './rows'

/**
 * The leads' INSERTs, as statements: services/leads.ts runs each in one D1 batch with the
 * e-mail that confirms it (a batch is one transaction: both or neither).
 */

export interface NewGuideRequest {
  email: string
  name: string
  guide: GuideSlug
  language: string
}

/** `checked`: the post passed the challenge; else it is marked for the desk (no e-mail went). */
export function insertGuideRequest(db: D1Database, r: NewGuideRequest, checked = true) {
  return insertRow(db, 'guide_requests', { ...r, unchecked: checked ? 0 : 1 })
}

/** A contact message as stored: the validated form (less its honeypot) and the page language. */
export type ContactMessage = Omit<v.InferOutput<typeof ContactSchema>, 'website'> & {
  language: string
}

export function insertContactMessage(db: D1Database, m: ContactMessage) {
  return insertRow(db, 'contact_messages', {
    ...m,
    company: m.company || null,
    budget: m.budget || null,
  })
}
