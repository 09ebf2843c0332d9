import type { Context } from 'hono'
import { isLang, type Lang } from '../../client/lib/languages'
import type { SiteConfig } from '../config'
import { insertMail, type MailCeilings } from '../db/outbox'
import type { Bindings } from '../bindings'
import type { AppEnv } from '../env'
import { createTranslator, type Translator } from '../i18n/translator'
import { TEMPLATES, type MailData, type MailKind } from './templates'
import { mailContext } from './templates/context'

/** The queue message of one e-mail: just its outbox id; the row holds the rest. */
export interface MailJob {
  id: number
}

/** The agency reads its notices in its own language (AGENCY_LANGUAGE, default English). */
export const agencyLanguage = (env: Bindings): Lang =>
  isLang(env.AGENCY_LANGUAGE) ? env.AGENCY_LANGUAGE : 'en'

/** Where the agency hears of new leads (AGENCY_NOTIFY_EMAIL, else AGENCY_EMAIL). */
export const agencyAddress = (env: Bindings, config: SiteConfig) =>
  env.AGENCY_NOTIFY_EMAIL || config.email

/** What writing an e-mail needs: the bindings, the site's settings, the reader's language. */
export interface MailWriter {
  env: Bindings
  config: SiteConfig
  lang: Lang
  t: Translator
}

/** The request's writer: its settings, the visitor's language. */
export const writerOf = (c: Context<AppEnv>): MailWriter => ({
  env: c.env,
  config: c.var.config,
  lang: c.var.lang,
  t: c.var.t,
})

/**
 * What a public form (or the auth service's mailing endpoints) e-mails to the address typed in
 * it: these count against the ceilings for unconfirmed addresses (db/outbox.ts, docs/bots.md).
 */
const FORM_MAIL: ReadonlySet<MailKind> = new Set<MailKind>([
  'subscribe_confirm',
  'guide',
  'booking_confirmation',
  'data_request',
  'auth_confirm_signup',
  'auth_magic_link',
  'auth_recovery',
  // a new address, typed by the account's holder: unproven until its link is used
  'auth_email_change',
])

const DEFAULT_CEILINGS: MailCeilings = { perAddressPerDay: 2, siteWidePerHour: 100 }

/** MAIL_UNCONFIRMED_DAILY_LIMIT and MAIL_UNCONFIRMED_HOURLY_LIMIT, else the defaults. */
export function mailCeilings(env: Partial<Bindings>): MailCeilings {
  const read = (value: string | undefined, fallback: number) => {
    const n = Number(value)
    return value !== undefined && value !== '' && Number.isInteger(n) && n >= 0 ? n : fallback
  }
  return {
    perAddressPerDay: read(env.MAIL_UNCONFIRMED_DAILY_LIMIT, DEFAULT_CEILINGS.perAddressPerDay),
    siteWidePerHour: read(env.MAIL_UNCONFIRMED_HOURLY_LIMIT, DEFAULT_CEILINGS.siteWidePerHour),
  }
}

/**
 * The outbox row of one e-mail, as a statement for the batch of the lead it confirms.
 * `to: 'agency'` addresses the agency's notices, in the agency's language.
 */
export async function mailRow<K extends MailKind>(
  w: MailWriter,
  kind: K,
  to: string | 'agency',
  data: MailData<K>,
  options: { onlyIfInserted?: boolean } = {},
) {
  const { env, config } = w
  const lang = to === 'agency' ? agencyLanguage(env) : w.lang
  const t = lang === w.lang ? w.t : createTranslator(lang)
  const template = TEMPLATES[kind]
  const letter = await template.letter(mailContext(env, config, lang, t), data as never)
  return insertMail(
    env.DB,
    {
      kind,
      data,
      category: template.category,
      language: lang,
      to: to === 'agency' ? agencyAddress(env, config) : to,
      siteUrl: config.siteUrl,
      subject: letter.subject,
    },
    options.onlyIfInserted,
    to !== 'agency' && FORM_MAIL.has(kind) ? mailCeilings(env) : undefined,
  )
}

/**
 * Whether the e-mail the statement at `position` wrote goes now: not written (a repeat), or
 * held or suppressed by the ceilings on unconfirmed addresses, it does not, and the visitor is
 * told so.
 */
export const mailGoes = (results: D1Result[], position: number) =>
  (results[position]?.results as { status?: string }[] | undefined)?.some(
    (r) => r.status === 'queued',
  ) ?? false

/** The ids a committed batch inserted into the outbox (statements at `positions`). */
export const insertedIds = (results: D1Result[], positions: number[]) =>
  positions.flatMap((i) => (results[i].results as { id: number }[]).map((r) => r.id))

/**
 * Puts committed e-mails on the delivery queue, after the answer. If the queue cannot take
 * them the rows stay `queued`, and the cron puts them on it within minutes: the visitor's
 * request never fails for it.
 */
export function enqueue(c: Context<AppEnv>, ids: number[]) {
  if (ids.length) c.executionCtx.waitUntil(sendJobs(c.env, ids))
}

/** Queue messages for outbox ids, 100 a call (the Queues limit); failures are logged. */
export async function sendJobs(env: Bindings, ids: number[]) {
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100)
    await env.MAIL_QUEUE.sendBatch(
      chunk.map((id) => ({ body: { id } satisfies MailJob, contentType: 'json' as const })),
    ).catch((err) => console.error('mail: not queued, the cron will retry', chunk, err))
  }
}
