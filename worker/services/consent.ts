import type { Context } from 'hono'
import { isLang } from '../../client/lib/languages'
import { openLink } from '../consent/links'
import { liftSuppression, suppression } from '../db/outbox'
import { confirmSubscriber, unsubscribeAddress } from '../db/subscribers'
import type { AppEnv } from '../env'
import { emailHash, sha256Hex } from '../hash'
import { createTranslator } from '../i18n/translator'
import { insertedIds, mailRow, sendJobs } from '../mail/enqueue'
import { dispatch, eventOf } from '../webhooks/events'

/** What following a confirmation link did. */
export type Confirmation = 'confirmed' | 'used' | 'expired' | 'invalid'

/**
 * A confirmation link's button: the pending subscription becomes confirmed (once), any earlier
 * unsubscribe is lifted (this is new consent), and the welcome e-mail, the first marketing one,
 * goes out in the subscriber's language.
 */
export async function confirmSubscription(
  c: Context<AppEnv>,
  token: string | undefined,
): Promise<Confirmation> {
  const link = await openLink(c.env, token, 'confirm')
  if (!link.ok) return link.reason
  const db = c.env.DB
  const ipHash = await sha256Hex(c.req.header('CF-Connecting-IP') ?? 'unknown')
  const row = await confirmSubscriber(db, link.claims.n, ipHash).first<{
    id: number
    email: string
    name: string | null
    language: string
  }>()
  if (!row) return 'used'
  const lang = isLang(row.language) ? row.language : c.var.lang
  const writer = { env: c.env, config: c.var.config, lang, t: createTranslator(lang) }
  const statements = [
    liftSuppression(db, await emailHash(row.email)),
    await mailRow(writer, 'welcome', row.email, { name: row.name ?? '' }),
    ...eventOf(c, {
      type: 'subscriber.confirmed',
      item: row.id,
      deskPath: '/desk/leads/subscriber/:id',
      data: { language: row.language },
      personal: { name: row.name, email: row.email },
    }),
  ]
  // the subscription stands even if the welcome cannot be written; it is a courtesy
  const results = await db.batch(statements).catch((err: unknown) => {
    console.error('welcome e-mail not written', err)
    return null
  })
  if (results) c.executionCtx.waitUntil(sendJobs(c.env, insertedIds(results, [1])))
  dispatch(c, results?.[3])
  return 'confirmed'
}

/** What an unsubscribe link did. */
export type Unsubscribed = 'unsubscribed' | 'expired' | 'invalid'

/**
 * An unsubscribe link (its page's button, or a mail client's one-click POST): the subscription
 * ends and the address's hash goes on the suppression list every marketing send checks. Doing
 * it twice changes nothing and says the same.
 */
export async function unsubscribe(
  c: Context<AppEnv>,
  token: string | undefined,
): Promise<Unsubscribed> {
  const link = await openLink(c.env, token, 'unsubscribe')
  if (!link.ok) return link.reason
  const db = c.env.DB
  const email = link.claims.e
  const before = await db
    .prepare('SELECT language FROM subscribers WHERE email = ?')
    .bind(email)
    .first<{ language: string }>()
  // its subscriber.unsubscribed webhook, written only if it was still subscribed
  const event = before
    ? eventOf(c, {
        type: 'subscriber.unsubscribed',
        item: { sql: '(SELECT id FROM subscribers WHERE email = ?)', args: [email] },
        when: {
          sql: "EXISTS (SELECT 1 FROM subscribers WHERE email = ? AND status != 'unsubscribed')",
          args: [email],
        },
        deskPath: '/desk/leads/subscriber/:id',
        data: { language: before.language },
        personal: { email },
      })
    : []
  const results = await db.batch([
    ...event,
    unsubscribeAddress(db, email),
    suppression(db, await emailHash(email), 'unsubscribe'),
  ])
  if (event.length) dispatch(c, results[1])
  return 'unsubscribed'
}
