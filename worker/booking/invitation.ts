import type { SiteConfig } from '../config'
import type { Booking } from '../db/bookings'
import type { Translator } from '../i18n/translator'
import { invitation, type Invitation } from './ics'

/** What the visitor and the agency are told of a booking: its time in words, its invitation. */

export const icsPath = (token: string) => `/book/${token}.ics`

/** What the booking's page says a visitor's change did (`done=`, after its redirect). */
export type ManageOutcome = 'moved' | 'cancelled'

/** The booking's own page (reschedule or cancel), by a link sealed for that one booking. */
export const managePath = (sealed: string, lang: string) =>
  `/book/manage?${new URLSearchParams({ token: sealed, lang })}`

/** "Monday 23 November 2026, 09:30" in the visitor's language and zone. */
export const describeSlot = (iso: string, lang: string, zone: string) =>
  new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeStyle: 'short', timeZone: zone }).format(
    new Date(iso),
  )

/**
 * A slot as a picker's option names it, "Tue, Dec 1, 11:00 AM": with its day, which a closed
 * picker shows only through the chosen option.
 */
export const slotOption = (lang: string, zone: string) =>
  new Intl.DateTimeFormat(lang, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: zone,
  })

/** The booking's event's UID, here and in the agency's calendar, for its whole life. */
export const bookingUid = (token: string, siteUrl: string) =>
  `booking-${token}@${new URL(siteUrl).hostname}`

/** A booking's UID: the stored one, or, for a booking from before UIDs were stored, the one
 * its invitations carried. */
export const uidOf = (booking: Pick<Booking, 'token' | 'uid'>, siteUrl: string) =>
  booking.uid ?? bookingUid(booking.token, siteUrl)

/**
 * A call's length as its sentences name it ("30-minute", "de 45 minutos"): the desk sets the
 * meeting length, so no e-mail or invitation may say 30 minutes of a 60-minute call.
 */
export const callLength = (t: Translator, start: Date | string, end?: Date | string) =>
  t.plural(
    'mail.call_length',
    end ? Math.round((new Date(end).getTime() - new Date(start).getTime()) / 60_000) : 30,
  )

/** The booking's event, before it is written as a .ics file. */
export function eventFor(
  { t, config }: { t: Translator; config: SiteConfig },
  booking: Pick<Booking, 'token' | 'slotStart' | 'notes' | 'email' | 'name'> &
    Partial<Pick<Booking, 'slotEnd' | 'sequence' | 'meetingUrl' | 'uid'>>,
  own: { method?: Invitation['method']; summary?: string; description?: string } = {},
): Invitation {
  const start = new Date(booking.slotStart)
  // bookings from before lengths could change were 30 minutes
  const end = booking.slotEnd ? new Date(booking.slotEnd) : new Date(start.getTime() + 30 * 60_000)
  return {
    uid: uidOf(booking, config.siteUrl),
    sequence: booking.sequence ?? 0,
    start,
    end,
    location: booking.meetingUrl,
    method: own.method,
    summary: own.summary ?? t('booking.ics_summary'),
    description:
      own.description ??
      [
        t('booking.ics_description', { length: callLength(t, start, end) }),
        booking.meetingUrl,
        booking.notes,
      ]
        .filter(Boolean)
        .join('\n\n'),
    organizerEmail: config.email,
    organizerName: t('meta.site_name'),
    attendeeEmail: booking.email,
    attendeeName: booking.name,
    // the contact page in the reader's language, as every e-mailed link to a page
    url: `${config.siteUrl}/contact?lang=${t.lang}`,
  }
}

/** The booking's calendar invitation (.ics text), as the page serves it and the e-mail attaches it. */
export const invitationFor = (
  ctx: { t: Translator; config: SiteConfig },
  booking: Parameters<typeof eventFor>[1],
  own: Parameters<typeof eventFor>[2] = {},
) => invitation(eventFor(ctx, booking, own))

/**
 * A cancelled call's invitation: METHOD:CANCEL, the same UID and a higher SEQUENCE (the caller's
 * `sequence` is already one past the last sent), so a calendar that has the call removes it.
 */
export const cancellationFor = (
  ctx: { t: Translator; config: SiteConfig },
  booking: Parameters<typeof eventFor>[1],
) => invitation({ ...eventFor(ctx, booking), method: 'CANCEL', status: 'CANCELLED' })
