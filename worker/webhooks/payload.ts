import type { Lang } from '../../client/lib/languages'
import { findService } from '../data/services'
import { formatDateTime } from '../i18n/format'
import type { Translator } from '../i18n/translator'
import { spokenBy } from '../mail/templates/context'

/** An event as stored: its data, with the personal fields apart. */
export interface StoredEvent {
  id: string
  type: string
  created_at: string
  data: string
}

type Data = Record<string, unknown> & { personal?: Record<string, unknown> }

/** The event's data for an endpoint: the personal fields only where it asks for them. */
export function dataFor(event: StoredEvent, personal: boolean) {
  const { personal: fields = {}, ...data } = JSON.parse(event.data) as Data
  return personal ? { ...data, ...fields } : data
}

/** The Standard Webhooks body: `{type, timestamp, data}`. */
export const standardBody = (event: StoredEvent, personal: boolean) =>
  JSON.stringify({ type: event.type, timestamp: event.created_at, data: dataFor(event, personal) })

/** What a Slack message is written with: the agency's language, zone and site name. */
export interface SlackWriter {
  t: Translator
  lang: Lang
  timeZone: string
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')

/** Slack's mrkdwn: &, < and > escaped, so a visitor's text is never a link or a mention. */
const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')

/** At most `max` characters (by code point, so an emoji is never cut in half). */
const cut = (text: string, max: number) => {
  const chars = Array.from(text)
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`
}

/** The one line that says what happened, in the agency's language. */
function headline(type: string, d: Record<string, unknown>, w: SlackWriter) {
  const { t } = w
  const slot = (iso: unknown) => (iso ? formatDateTime(w.lang, str(iso), w.timeZone) : '')
  switch (type) {
    case 'lead.created':
      if (d.kind === 'contact') return t('webhooks.lead_contact')
      if (d.kind === 'guide') return t('webhooks.lead_guide')
      return t('webhooks.lead_subscriber')
    case 'subscriber.confirmed':
      return t('webhooks.subscriber_confirmed')
    case 'subscriber.unsubscribed':
      return t('webhooks.subscriber_unsubscribed')
    case 'booking.created':
      return t('webhooks.booking_created', { slot: slot(d.slot_start) })
    case 'booking.moved':
      return t('webhooks.booking_moved', { slot: slot(d.slot_start) })
    case 'booking.cancelled':
      return t('webhooks.booking_cancelled', { slot: slot(d.slot_start) })
    case 'content.published':
      return t('webhooks.content_published', { slug: str(d.slug) })
    default:
      return t('webhooks.test')
  }
}

/** The label-value lines under the headline: the service or slot, and personal fields if asked. */
function details(type: string, d: Record<string, unknown>, w: SlackWriter) {
  const { t } = w
  const lines: [string, string][] = []
  if (typeof d.name === 'string' && d.name) lines.push([t('mail.label_name'), d.name])
  if (typeof d.email === 'string' && d.email) lines.push([t('mail.label_email'), d.email])
  if (typeof d.service === 'string') {
    const found = findService(d.service)
    lines.push([
      t('mail.label_service'),
      found ? t(`services.items.${found.key}.name`) : t('contact.other_service'),
    ])
  }
  if (typeof d.guide === 'string') lines.push([t('webhooks.label_guide'), d.guide])
  if (type === 'booking.moved' && d.previous_start)
    lines.push([
      t('webhooks.label_previous'),
      formatDateTime(w.lang, str(d.previous_start), w.timeZone),
    ])
  if (typeof d.language === 'string')
    lines.push([t('mail.label_language'), spokenBy(w.lang, d.language)])
  return lines
}

/**
 * The Slack (Block Kit) body: a header (what happened), a section of details, the visitor's
 * message where personal fields are asked for, the time, and a button to the desk page.
 * `text` is the notification's fallback. Slack's limits: a header's text 150 characters, a
 * section's 3000, a button's label 75.
 */
export function slackBody(event: StoredEvent, personal: boolean, w: SlackWriter) {
  const d = dataFor(event, personal)
  const title = cut(headline(event.type, d, w), 150)
  const lines = details(event.type, d, w)
  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: title, emoji: true } },
  ]
  if (lines.length)
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: cut(lines.map(([k, v]) => `*${escape(k)}:* ${escape(v)}`).join('\n'), 3000),
      },
    })
  const message =
    typeof d.message === 'string' ? d.message : typeof d.notes === 'string' ? d.notes : ''
  if (message)
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: cut(
          escape(message)
            .split('\n')
            .map((l) => `> ${l}`)
            .join('\n'),
          3000,
        ),
      },
    })
  blocks.push({
    type: 'context',
    elements: [
      { type: 'mrkdwn', text: escape(formatDateTime(w.lang, event.created_at, w.timeZone)) },
    ],
  })
  if (typeof d.desk_url === 'string' && d.desk_url)
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: cut(w.t('webhooks.open_desk'), 75) },
          url: d.desk_url,
          action_id: 'open_desk',
        },
      ],
    })
  return JSON.stringify({ text: title, blocks })
}
