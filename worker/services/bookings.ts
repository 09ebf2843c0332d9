import type { Context } from 'hono'
import { invitation } from '../booking/ics'
import { freeSlots, readAvailability } from '../booking/slots'
import { listBookedSlots, type Booking } from '../db/bookings'
import type { AppEnv } from '../env'

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
export function invitationFor(c: Context<AppEnv>, booking: Booking) {
  const { t, config } = c.var
  return invitation({
    uid: `booking-${booking.id}@${new URL(config.siteUrl).hostname}`,
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
