import { isLang } from '../../client/lib/languages'
import { siteConfig } from '../config'
import { linkUrl, sealLink } from '../consent/links'
import type { OutboxRow } from '../db/outbox'
import type { Bindings } from '../bindings'
import { createTranslator } from '../i18n/translator'
import { letterHtml, letterText, type Signature } from './layout'
import type { MailMessage } from './letter'
import { isMailKind, TEMPLATES } from './templates'
import { mailContext } from './templates/context'

/**
 * An outbox row as a complete message, in the recipient's language: the template's letter,
 * laid out as text and HTML, with the sender, reply address and headers.
 */
export async function renderMail(
  env: Bindings,
  row: OutboxRow,
  unsubscribeToken?: string,
): Promise<MailMessage> {
  if (!isMailKind(row.kind)) throw new Error(`no template for "${row.kind}"`)
  const lang = isLang(row.language) ? row.language : 'en'
  const t = createTranslator(lang)
  const config = siteConfig(env, row.site_url)
  const template = TEMPLATES[row.kind]
  const ctx = mailContext(env, config, lang, t)
  const letter = await template.letter(ctx, JSON.parse(row.data) as never)
  // after "Hallo Ada," German goes on in lower case ("vielen Dank …"); the same sentence as the
  // inbox's preview line stands alone and starts as a sentence does
  if (letter.greeting)
    letter.preview = letter.preview.charAt(0).toLocaleUpperCase(lang) + letter.preview.slice(1)
  const headers: Record<string, string> = {}
  // a staff member's test carries a link that unsubscribes nobody, as the desk's preview does
  const token = template.test ? INERT_UNSUBSCRIBE : unsubscribeToken
  const unsubscribe =
    template.category === 'marketing'
      ? linkUrl(
          config.siteUrl,
          '/unsubscribe',
          token ?? (await sealedUnsubscribe(env, row)),
          row.language,
        )
      : undefined
  if (unsubscribe && !template.test) {
    // RFC 8058 one-click unsubscribe, for the mailbox's own button (none on a test: it would
    // say "unsubscribed" and do nothing)
    headers['List-Unsubscribe'] = `<${unsubscribe}>`
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click'
  }
  const site = new URL(config.siteUrl).host
  const sig: Signature = {
    siteName: t('meta.site_name'),
    siteUrl: config.siteUrl,
    home: ctx.page('/'),
    address: env.AGENCY_ADDRESS || t('meta.site_name'),
    why: template.test
      ? t('mail.why_test', { site })
      : t(`mail.why_${template.category}`, { site }),
    unsubscribe: unsubscribe ? { label: t('mail.unsubscribe'), url: unsubscribe } : undefined,
  }
  return {
    id: row.id,
    from: env.MAIL_FROM || `${t('meta.site_name')} <${config.email}>`,
    to: row.to_address,
    replyTo: letter.replyTo ?? (env.MAIL_REPLY_TO || config.email),
    // one line: a visitor's name in a subject must never start a header of its own
    subject: letter.subject.replace(/[\r\n]+/g, ' '),
    text: letterText(letter, sig, t),
    html: await letterHtml(letter, sig, lang),
    headers,
    attachments: letter.attachments ?? [],
    language: lang,
  }
}

/**
 * The token of an unsubscribe link that unsubscribes nobody (the unsubscribe page finds it
 * invalid): the desk's preview and a staff member's test show the link without its power.
 */
export const INERT_UNSUBSCRIBE = 'preview'

/** Every marketing e-mail's own unsubscribe link: sealed for its address. */
const sealedUnsubscribe = (env: Bindings, row: Pick<OutboxRow, 'to_address'>) =>
  sealLink(env, { p: 'unsubscribe', e: row.to_address.trim().toLowerCase() })

/** Newsletter layouts of this isolate, by issue and language (renderMany). */
const issueLayouts = new Map<string, Promise<MailMessage>>()

/** Stands for the unsubscribe token in a rendering shared by many addresses. */
const PLACEHOLDER = 'UNSUBSCRIBE-TOKEN-PLACEHOLDER'

/**
 * Many e-mails of one mailing (a newsletter's batch): rows of the same kind, data and language
 * differ only in their address and its unsubscribe link, so each such group is laid out once
 * and each row gets its own sealed token in place (the token is base64url: nothing to escape).
 */
export async function renderMany(env: Bindings, rows: OutboxRow[]): Promise<MailMessage[]> {
  const shared = new Map<string, Promise<MailMessage>>()
  return Promise.all(
    rows.map(async (row) => {
      const key = JSON.stringify([row.kind, row.language, row.site_url, row.data])
      // a newsletter's text is fixed once it sends: its layout is kept for the isolate's life
      const kept = row.kind === 'newsletter' ? issueLayouts : shared
      let base = kept.get(key)
      if (!base) {
        base = renderMail(env, row, PLACEHOLDER)
        kept.set(key, base)
        base.catch(() => kept.delete(key))
        // a handful of issues in six languages at most, in practice; never unbounded
        if (issueLayouts.size > 60) issueLayouts.delete(issueLayouts.keys().next().value!)
      }
      const message = await base
      const token = await sealedUnsubscribe(env, row)
      const own = (s: string) => s.replaceAll(PLACEHOLDER, token)
      return {
        ...message,
        id: row.id,
        to: row.to_address,
        text: own(message.text),
        html: own(message.html),
        headers: Object.fromEntries(Object.entries(message.headers).map(([k, v]) => [k, own(v)])),
      }
    }),
  )
}
