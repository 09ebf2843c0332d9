import * as v from 'valibot'

/** The conversion events the site reports (POST /api/events); anything else is refused. */
export const EVENT_NAMES = [
  'lead',
  'guide_download',
  'newsletter',
  'contact_message',
  'booking_opened',
  'booking_made',
  'whatsapp_click',
  'consultation_widget_open',
  'language_change',
  'sign_in',
  'sign_up',
] as const
export type EventName = (typeof EVENT_NAMES)[number]

const propValue = v.union([v.pipe(v.string(), v.maxLength(64)), v.number(), v.boolean()])

export const EventSchema = v.strictObject({
  name: v.picklist(EVENT_NAMES),
  /** the page it happened on: a path, no query string */
  path: v.pipe(v.string(), v.maxLength(200), v.regex(/^\/[\w\-/.]*$/)),
  props: v.optional(
    v.pipe(
      v.record(v.pipe(v.string(), v.regex(/^[a-z_]{1,32}$/)), propValue),
      v.check((o) => Object.keys(o).length <= 6, 'too many props'),
    ),
  ),
})
