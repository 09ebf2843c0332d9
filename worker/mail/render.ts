import { isLang } from '../../client/lib/languages'
import { readConfig } from '../config'
import { linkUrl, sealLink } from '../consent/links'
import type { OutboxRow } from '../db/outbox'
import type { Bindings } from '../env'
import { createTranslator } from '../i18n/translator'
import { letterHtml, letterText, type Signature } from './layout'
import type { MailMessage } from './letter'
import { isMailKind, TEMPLATES } from './templates'
import { mailContext } from './templates/context'

/**
 * An outbox row as a complete message, in the recipient's language: the template's letter,
 * laid out as text and HTML, with the sender, reply address and headers.
 */
export async function renderMail(env: Bindings, row: OutboxRow): Promise<MailMessage> {
  if (!isMailKind(row.kind)) throw new Error(`no template for "${row.kind}"`)
  const lang = isLang(row.language) ? row.language : 'en'
  const t = createTranslator(lang)
  const config = readConfig(env, row.site_url || env.SITE_URL || 'http://localhost')
  const template = TEMPLATES[row.kind]
  const letter = await template.letter(
    mailContext(env, config, lang, t),
    JSON.parse(row.data) as never,
  )
  const headers: Record<string, string> = {}
  const unsubscribe =
    template.category === 'marketing' ? await unsubscribeUrl(env, config.siteUrl, row) : undefined
  if (unsubscribe) {
    // RFC 8058 one-click unsubscribe, for the mailbox's own button
    headers['List-Unsubscribe'] = `<${unsubscribe}>`
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click'
  }
  const sig: Signature = {
    siteName: t('meta.site_name'),
    siteUrl: config.siteUrl,
    address: env.AGENCY_ADDRESS || t('meta.site_name'),
    why: t(`mail.why_${template.category}`, { site: new URL(config.siteUrl).host }),
    unsubscribe: unsubscribe ? { label: t('mail.unsubscribe'), url: unsubscribe } : undefined,
  }
  return {
    id: row.id,
    from: env.MAIL_FROM || `${t('meta.site_name')} <${config.email}>`,
    to: row.to_address,
    replyTo: letter.replyTo ?? (env.MAIL_REPLY_TO || config.email),
    // one line: a visitor's name in a subject must never start a header of its own
    subject: letter.subject.replace(/[\r\n]+/g, ' '),
    text: letterText(letter, sig),
    html: await letterHtml(letter, sig, lang),
    headers,
    attachments: letter.attachments ?? [],
    language: lang,
  }
}

/** Every marketing e-mail's own unsubscribe link: sealed for its address, in its language. */
async function unsubscribeUrl(env: Bindings, siteUrl: string, row: OutboxRow) {
  const token = await sealLink(env, { p: 'unsubscribe', e: row.to_address.trim().toLowerCase() })
  return linkUrl(siteUrl, '/unsubscribe', token, row.language)
}
