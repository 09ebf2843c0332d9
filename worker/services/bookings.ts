import type { Context } from 'hono'
import { invitation } from '../booking/ics'
import { freeSlots, readAvailability } from '../booking/slots'
import { insertBooking, listBookedSlots, type Booking, type NewBooking } from '../db/bookings'
import type { SiteConfig } from '../config'
import type { AppEnv } from '../env'
import type { Translator } from '../i18n/translator'
import { enqueue, insertedIds, mailRow, writerOf } from '../mail/enqueue'

/** Free 30-minute slots from now, UTC ISO strings, oldest first. */
export async function currentSlots(c: Context<AppEnv>, now = new Date()) {
  const availability = readAvailability(c.env)
  const booked = await listBookedSlots(c.env.DB, now.toISOString())
  return { slots: freeSlots(availability, now, booked), timeZone: availability.timeZone }
}

export const icsPath = (token: string) => `/book/${token}.ics`

/** "Monday 23 November 2026, 09:30" in the visitor's language and zone. */
export const describeSlot = (iso: string, lang: string, zone: string) =>
  new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeStyle: 'short', timeZone: zone }).format(
    new Date(iso),
  )

/** The booking's calendar invitation (.ics text), as the page serves it and the e-mail attaches it. */
export function invitationFor(
  { t, config }: { t: Translator; config: SiteConfig },
  booking: Pick<Booking, 'token' | 'slotStart' | 'notes' | 'email' | 'name'>,
) {
  return invitation({
    uid: `booking-${booking.token}@${new URL(config.siteUrl).hostname}`,
    start: new Date(booking.slotStart),
    summary: t('booking.ics_summary'),
    description: [t('booking.ics_description'), booking.notes].filter(Boolean).join('\n\n'),
    organizerEmail: config.email,
    organizerName: t('meta.site_name'),
    attendeeEmail: booking.email,
    attendeeName: booking.name,
    url: config.siteUrl + '/contact',
  })
}

/**
 * Books a slot with its two e-mails (the visitor's confirmation with the invitation, and the
 * agency's notice) in one batch; the e-mails are written only if the slot was free.
 */
export async function book(c: Context<AppEnv>, b: NewBooking) {
  const token = crypto.randomUUID()
  const call = { ...b, token, notes: b.notes || undefined }
  const agencyTimeZone = readAvailability(c.env).timeZone
  const writer = writerOf(c)
  const results = await c.env.DB.batch([
    insertBooking(c.env.DB, { ...b, token }),
    await mailRow(writer, 'booking_confirmation', b.email, call, { onlyIfInserted: true }),
    await mailRow(
      writer,
      'agency_booking',
      'agency',
      { ...call, agencyTimeZone },
      { onlyIfInserted: true },
    ),
  ])
  const inserted = results[0].results as { id: number }[]
  if (!inserted.length) return { taken: true as const }
  enqueue(c, insertedIds(results, [1, 2]))
  return { booking: { ...b, id: inserted[0].id, token } satisfies Booking }
}
