import type { Context } from 'hono'
import { openLink } from '../consent/links'
import { suppression } from '../db/outbox'
import { syncSoon } from '../calendar/sync'
import { siteConfig } from '../config'
import {
  calendarEventsOwed,
  eraseRows,
  personalRows,
  pseudonymiseAudit,
  recentDataRequest,
  suppressionOf,
} from '../db/personal-data'
import type { Bindings } from '../bindings'
import type { AppEnv } from '../env'
import { emailHash } from '../hash'
import { enqueue, insertedIds, mailGoes, mailRow, writerOf } from '../mail/enqueue'

/**
 * A visitor's rights over what the site holds about their address (README: "Consent and data
 * rights"): a copy, an erasure, each proven by a link e-mailed to the address; account holders
 * do the same from /account. And the daily clean-up the privacy policy promises.
 */

/** One link per address and action per this many minutes: a form cannot flood a mailbox. */
export const DATA_REQUEST_EVERY_MINUTES = 10

/**
 * /privacy/request: e-mails the address a link for the action. It answers nothing: a known and
 * an unknown address are treated alike (the link of an unknown one finds no rows).
 */
export async function requestDataLink(
  c: Context<AppEnv>,
  email: string,
  action: 'export' | 'erase',
) {
  const db = c.env.DB
  // one link a few minutes: a repeat within them is the same request, its link on the way
  if (await recentDataRequest(db, email, action, DATA_REQUEST_EVERY_MINUTES)) return true
  const results = await db.batch([
    await mailRow(writerOf(c), 'data_request', email, { action, email }),
  ])
  enqueue(c, insertedIds(results, [0]))
  /** false: over the ceiling for an unconfirmed address, or held; the page says so. */
  return mailGoes(results, 0)
}

/** What a data link's page may do: its action and address, or why not. */
export async function openDataLink(env: Bindings, token: string | undefined) {
  return openLink(env, token, 'data')
}

/** Everything about the address, as the JSON file the visitor downloads. */
export async function exportData(
  env: Bindings,
  email: string,
  extra: Record<string, unknown> = {},
) {
  const [rows, suppressed] = await Promise.all([
    personalRows(env.DB, email),
    suppressionOf(env.DB, await emailHash(email)),
  ])
  return {
    exported_at: new Date().toISOString(),
    email,
    ...extra,
    ...rows,
    // the do-not-mail list keeps only a hash; whether this address is on it, and why
    suppression: suppressed,
  }
}

/**
 * Deletes every row about the address, and the events of its bookings in the agency's calendar
 * (now, and retried until the calendar answers: calendar/sync.ts). Only its hash stays: on the
 * suppression list, and where the desk's log named it.
 */
export async function eraseData(
  env: Bindings,
  email: string,
  ctx: Pick<ExecutionContext, 'waitUntil'>,
) {
  const db = env.DB
  const hash = await emailHash(email)
  const [events] = await db.batch([
    calendarEventsOwed(db, email, new URL(siteConfig(env).siteUrl).hostname),
    pseudonymiseAudit(db, email, `sha256:${hash}`),
    ...eraseRows(db, email),
    suppression(db, hash, 'erasure'),
  ])
  if (events.meta.changes) ctx.waitUntil(syncSoon(env))
}

/** The JSON file of an export, as a download. */
export function jsonDownload(c: Context<AppEnv>, data: unknown) {
  const day = new Date().toISOString().slice(0, 10)
  c.header('Cache-Control', 'no-store')
  c.header('Content-Disposition', `attachment; filename="my-data-${day}.json"`)
  return c.body(JSON.stringify(data, null, 2), 200, {
    'Content-Type': 'application/json; charset=utf-8',
  })
}
