import type { Context } from 'hono'
import {
  addUncheckedGuideRequest,
  completeGuideRequest,
  insertContactMessage,
  lastGuideMail,
  type ContactMessage,
  type NewGuideRequest,
} from '../db/leads'
import { signUp, statusOf, type NewSubscriber, type SubscriberStatus } from '../db/subscribers'
import type { AppEnv } from '../env'
import { enqueue, insertedIds, mailGoes, mailRow, writerOf } from '../mail/enqueue'
import { dispatch, emit, eventOf } from '../webhooks/events'
import { countConversion } from '../experiments/counting'

/**
 * Storing a lead and writing the e-mail that confirms it are one D1 batch (one transaction):
 * a stored lead always has its mail, and a failed write stores neither. The e-mails go on the
 * delivery queue after the commit.
 */

/** The random key of one confirmation link (kept until spent; e-mailed sealed). */
const newNonce = () => crypto.randomUUID()

/**
 * Was the address on the list before this sign-up: confirmed, or pending with a link e-mailed
 * (not one kept from a post without the challenge, which was never e-mailed)?
 */
const wasListed = (result: D1Result) => {
  const before = result.results[0] as { status?: SubscriberStatus; unchecked?: number } | undefined
  return before?.status === 'confirmed' || (before?.status === 'pending' && !before.unchecked)
}

/**
 * A sign-up (popup or newsletter box): the address goes on the list as pending, and one e-mail
 * brings the starter guide and the link that confirms (double opt-in); `checked`: the post
 * passed the challenge (worker/api/challenge.ts). An address already on the list gets nothing
 * new (`alreadySubscribed`), unless its pending link is old (db/subscribers.ts); one that had
 * unsubscribed opts in again. Unchecked (no JavaScript): a new address is added, marked, an
 * address the list holds is left exactly as it is, and nothing is e-mailed.
 */
export async function subscribe(c: Context<AppEnv>, s: NewSubscriber, checked: boolean) {
  const db = c.env.DB
  const nonce = newNonce()
  const statements = [
    statusOf(db, s.email),
    signUp(db, s, nonce, checked),
    // posted without the challenge (no JavaScript): kept, marked, and nothing e-mailed
    ...(checked
      ? [
          await mailRow(
            writerOf(c),
            'subscribe_confirm',
            s.email,
            { name: s.name ?? '', nonce },
            { onlyIfInserted: true },
          ),
        ]
      : []),
  ]
  const results = await db.batch(statements)
  if (checked) enqueue(c, insertedIds(results, [2]))
  // a new lead: an address not on the list before (or unsubscribed, or kept from a post without
  // the challenge, which was never announced); posts without the challenge are not announced
  const added = results[1].results[0] as { id: number } | undefined
  if (checked && added && !wasListed(results[0]))
    await emit(c, {
      type: 'lead.created',
      item: added.id,
      deskPath: '/desk/leads/subscriber/:id',
      data: { kind: 'subscriber', language: s.language, form: s.form, source: s.source },
      personal: { name: s.name, email: s.email },
    })
  if (checked && added && !wasListed(results[0])) await countConversion(c, 'newsletter')
  return { alreadySubscribed: wasListed(results[0]), mailed: checked && mailGoes(results, 2) }
}

/**
 * A guide download: the request is kept and the guide mailed; the person joins the list as
 * pending, and the guide's e-mail carries the confirmation link while that sign-up waits.
 * Posted without the challenge (`checked` false): the guide downloads, the request is added,
 * marked, and nothing is e-mailed. With it, a request of the address for this guide that came
 * without it is taken over (one row, its e-mail goes now), and a repeat within
 * REPEAT_GUIDE_MINUTES stores and sends nothing (db/leads.ts): `mailed` then says whether the
 * e-mail of a moment ago went.
 */
export async function requestGuide(c: Context<AppEnv>, r: NewGuideRequest, checked: boolean) {
  const db = c.env.DB
  const nonce = newNonce()
  const listed = [
    statusOf(db, r.email),
    signUp(
      db,
      { email: r.email, name: r.name, source: 'website', form: 'guide', language: r.language },
      nonce,
      checked,
    ),
  ]
  if (!checked) {
    const results = await db.batch([...listed, addUncheckedGuideRequest(db, r)])
    return { alreadySubscribed: wasListed(results[0]), mailed: false }
  }
  const results = await db.batch([
    ...listed,
    lastGuideMail(db, r),
    ...completeGuideRequest(db, r),
    await mailRow(
      writerOf(c),
      'guide',
      r.email,
      { name: r.name, guide: r.guide, nonce },
      { onlyIfInserted: true },
    ),
  ])
  enqueue(c, insertedIds(results, [5]))
  const repeat = results[4].results.length === 0
  // the request completed with the challenge (a repeat is none)
  if (!repeat)
    await emit(c, {
      type: 'lead.created',
      item: (results[4].results[0] as { id: number }).id,
      deskPath: '/desk/leads/guide/:id',
      data: { kind: 'guide', language: r.language, guide: r.guide, page: `/guides/${r.guide}` },
      personal: { name: r.name, email: r.email },
    })
  if (!repeat) await countConversion(c, 'guide')
  const before = (results[2].results[0] as { status?: string } | undefined)?.status
  return {
    alreadySubscribed: wasListed(results[0]),
    mailed: repeat
      ? before === 'queued' || before === 'sending' || before === 'sent'
      : mailGoes(results, 5),
  }
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
    // its lead.created webhook (the message just added is the address's newest)
    ...eventOf(c, {
      type: 'lead.created',
      item: { sql: '(SELECT max(id) FROM contact_messages WHERE email = ?)', args: [m.email] },
      deskPath: '/desk/leads/contact/:id',
      data: {
        kind: 'contact',
        language: m.language,
        page: '/contact',
        service: m.service,
        budget: m.budget || null,
      },
      personal: { name: m.name, email: m.email, company: m.company || null, message: m.message },
    }),
  ])
  enqueue(c, insertedIds(results, [1]))
  dispatch(c, results[3])
  await countConversion(c, 'contact')
}
