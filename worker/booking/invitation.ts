import type { SiteConfig } from '../config'
import type { Booking } from '../db/bookings'
import type { Translator } from '../i18n/translator'
import { invitation } from './ics'

/** What the visitor and the agency are told of a booking: its time in words, its invitation. */

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
