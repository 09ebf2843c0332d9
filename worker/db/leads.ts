import type * as v from 'valibot'
import type { ContactSchema, GuideSlug } from '../../client/schemas/leads'
import { insertRow } from './rows'

/**
 * The leads' INSERTs, as statements: services/leads.ts runs each in one D1 batch with the
 * e-mail that confirms it (a batch is one transaction: both or neither).
 */

/** Version of the consent wording shown next to the signup forms; stored with each subscriber. */
export const CONSENT_VERSION = '2026-11-01'

export type SignupForm = 'welcome_popup' | 'guide' | 'newsletter'

export interface NewSubscriber {
  email: string
  name: string | null
  source: string
  form: SignupForm
  language: string
}

/**
 * Adds a subscriber unless the e-mail is already on the list; then nothing changes and it
 * returns no row. One statement, so concurrent signups of one address store exactly one row.
 */
export function insertSubscriber(db: D1Database, s: NewSubscriber) {
  return db
    .prepare(
      `INSERT INTO subscribers (email, name, source, signup_form, language, consent_version)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (email) DO NOTHING
       RETURNING id`,
    )
    .bind(s.email, s.name, s.source, s.form, s.language, CONSENT_VERSION)
}

export interface NewGuideRequest {
  email: string
  name: string
  guide: GuideSlug
  language: string
}

export function insertGuideRequest(db: D1Database, r: NewGuideRequest) {
  return insertRow(db, 'guide_requests', { ...r })
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
