import type * as v from 'valibot'
import type { ContactSchema, GuideSlug } from '../../client/schemas/leads'
import { insertRow } from './rows'

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
 * Adds a subscriber unless the e-mail is already on the list; then nothing changes.
 * One statement, so concurrent signups of one address store exactly one row.
 */
export async function addSubscriber(
  db: D1Database,
  s: NewSubscriber,
): Promise<{ alreadySubscribed: boolean }> {
  const inserted = await db
    .prepare(
      `INSERT INTO subscribers (email, name, source, signup_form, language, consent_version)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (email) DO NOTHING
       RETURNING id`,
    )
    .bind(s.email, s.name, s.source, s.form, s.language, CONSENT_VERSION)
    .first<{ id: number }>()
  return { alreadySubscribed: inserted === null }
}

export async function addGuideRequest(
  db: D1Database,
  r: { email: string; name: string; guide: GuideSlug; language: string },
): Promise<{ alreadySubscribed: boolean }> {
  // Both rows or neither: a batch is one transaction in D1.
  const [subscriber] = await db.batch<{ id: number }>([
    db
      .prepare(
        `INSERT INTO subscribers (email, name, source, signup_form, language, consent_version)
         VALUES (?, ?, 'website', 'guide', ?, ?)
         ON CONFLICT (email) DO NOTHING
         RETURNING id`,
      )
      .bind(r.email, r.name, r.language, CONSENT_VERSION),
    db
      .prepare('INSERT INTO guide_requests (email, name, guide, language) VALUES (?, ?, ?, ?)')
      .bind(r.email, r.name, r.guide, r.language),
  ])
  return { alreadySubscribed: subscriber.results.length === 0 }
}

/** A contact message as stored: the validated form (less its honeypot) and the page language. */
export type ContactMessage = Omit<v.InferOutput<typeof ContactSchema>, 'website'> & {
  language: string
}

export async function addContactMessage(db: D1Database, m: ContactMessage): Promise<void> {
  await insertRow(db, 'contact_messages', {
    ...m,
    company: m.company || null,
    budget: m.budget || null,
  }).run()
}
