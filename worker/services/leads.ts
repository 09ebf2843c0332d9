import type { Context } from 'hono'
import {
  insertContactMessage,
  insertGuideRequest,
  insertSubscriber,
  type ContactMessage,
  type NewGuideRequest,
  type NewSubscriber,
} from '../db/leads'
import type { AppEnv } from '../env'
import { enqueue, insertedIds, mailRow, writerOf } from '../mail/enqueue'

/**
 * Storing a lead and writing the e-mail that confirms it are one D1 batch (one transaction):
 * a stored lead always has its mail, and a failed write stores neither. The e-mails go on the
 * delivery queue after the commit.
 */

/** A sign-up; a new subscriber from the welcome popup gets the starter guide by e-mail. */
export async function subscribe(c: Context<AppEnv>, s: NewSubscriber) {
  const db = c.env.DB
  const statements = [insertSubscriber(db, s)]
  if (s.form === 'welcome_popup')
    statements.push(
      await mailRow(
        writerOf(c),
        'welcome',
        s.email,
        { name: s.name ?? '' },
        { onlyIfInserted: true },
      ),
    )
  const results = await db.batch(statements)
  enqueue(c, insertedIds(results, statements.length > 1 ? [1] : []))
  return { alreadySubscribed: results[0].results.length === 0 }
}

/** A guide download: the person joins the list (once), the request is kept, the guide mailed. */
export async function requestGuide(c: Context<AppEnv>, r: NewGuideRequest) {
  const db = c.env.DB
  const results = await db.batch([
    insertSubscriber(db, {
      email: r.email,
      name: r.name,
      source: 'website',
      form: 'guide',
      language: r.language,
    }),
    insertGuideRequest(db, r),
    await mailRow(writerOf(c), 'guide', r.email, { name: r.name, guide: r.guide }),
  ])
  enqueue(c, insertedIds(results, [2]))
  return { alreadySubscribed: results[0].results.length === 0 }
}

/** A contact message; the agency is told at once, with everything the visitor sent. */
export async function sendContactMessage(c: Context<AppEnv>, m: ContactMessage) {
  const results = await c.env.DB.batch([
    insertContactMessage(c.env.DB, m),
    await mailRow(writerOf(c), 'agency_contact', 'agency', {
      name: m.name,
      email: m.email,
      company: m.company,
      service: m.service,
      budget: m.budget,
      message: m.message,
      language: m.language,
    }),
  ])
  enqueue(c, insertedIds(results, [1]))
}
