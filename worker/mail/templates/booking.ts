import { zoneName } from '../../../client/islands/booking-form'
import {
  callLength,
  cancellationFor,
  describeSlot,
  icsPath,
  invitationFor,
  managePath,
} from '../../booking/invitation'
import type { CancelledBooking } from '../../db/bookings'
import { spokenBy, type MailContext, type MailTemplate } from './context'

/** A booked consultation, as the confirmation and the agency's notice both need it. */
export interface BookedCall {
  name: string
  email: string
  slotStart: string
  /** Absent in e-mails written before meeting lengths could change: 30 minutes. */
  slotEnd?: string
  sequence?: number
  meetingUrl?: string
  uid?: string
  timeZone: string
  token: string
  notes?: string
  language: string
  /** The agency's own zone (BOOKING_TIMEZONE): its notice gives the time as the agency keeps it. */
  agencyTimeZone?: string
}

/**
 * The call as a calendar file: REQUEST to the visitor, whose calendar app then holds it as the
 * agency's meeting (and removes it on the CANCEL); PUBLISH to the agency, its organiser, whose
 * calendar gets the event by the sync. The MIME type names the same method, as iTIP asks.
 */
const attachment = (ctx: MailContext, b: BookedCall, method: 'REQUEST' | 'PUBLISH') => ({
  filename: 'consultation.ics',
  contentType: `text/calendar; charset=utf-8; method=${method}`,
  content: invitationFor(ctx, b, { method }),
})

/** The cancellation a calendar app acts on: it removes the call it has under the same UID. */
const cancelAttachment = (ctx: MailContext, b: CancelledBooking) => ({
  filename: 'consultation.ics',
  contentType: 'text/calendar; charset=utf-8; method=CANCEL',
  content: cancellationFor(ctx, b),
})

/**
 * A time as the agency keeps it, "… 10:00 (United Kingdom Time)": a zone name that has brackets
 * of its own ("Vereinigtes Königreich (Ortszeit)") follows after a comma, not inside more.
 */
const inZone = (lang: string, zone: string, iso: string) => {
  const name = zoneName(lang, zone)
  const when = describeSlot(iso, lang, zone)
  return name.includes('(') ? `${when}, ${name}` : `${when} (${name})`
}

/** The visitor's own links: where to meet, and their booking's page to reschedule or cancel. */
async function visitorLinks(ctx: MailContext, b: BookedCall) {
  const { t, lang, config } = ctx
  const manage = config.siteUrl + managePath(await ctx.seal({ p: 'booking', t: b.token }), lang)
  return [
    ...(b.meetingUrl ? [{ label: t('mail.booking_meeting'), url: b.meetingUrl }] : []),
    { label: t('mail.booking_manage'), url: manage },
  ]
}

/** The visitor's confirmation, with the invitation attached. */
export const bookingConfirmation: MailTemplate<BookedCall> = {
  category: 'transactional',
  letter: async (ctx, b) => {
    const { t, lang, config } = ctx
    const when = describeSlot(b.slotStart, lang, b.timeZone)
    const links = await visitorLinks(ctx, b)
    const intro = t('mail.booking_intro', { length: callLength(t, b.slotStart, b.slotEnd) })
    return {
      subject: t('booking.mail_subject', { when }),
      preview: intro,
      greeting: t('mail.greeting', { name: b.name }),
      paragraphs: [intro, t('mail.booking_calendar')],
      details: [
        [t('mail.label_when'), when],
        [t('mail.label_zone'), zoneName(lang, b.timeZone)],
      ],
      action: { label: t('mail.booking_action'), url: config.siteUrl + icsPath(b.token) },
      links,
      closing: `${t('mail.booking_outro')}\n\n${t('mail.signoff')}`,
      // built when the message is rendered for sending, not when the outbox row is written
      get attachments() {
        return [attachment(ctx, b, 'REQUEST')]
      },
    }
  },
}

/** The agency's notice of the same booking; a reply goes to the visitor. */
export const agencyBooking: MailTemplate<BookedCall> = {
  category: 'agency',
  letter: (ctx, b) => {
    const { t, lang } = ctx
    const zone = b.agencyTimeZone ?? b.timeZone
    const when = inZone(lang, zone, b.slotStart)
    return {
      subject: t('mail.agency_booking_subject', { name: b.name, when }),
      preview: t('mail.agency_booking_intro'),
      paragraphs: [t('mail.agency_booking_intro')],
      details: [
        [t('mail.label_name'), b.name],
        [t('mail.label_email'), b.email],
        [t('mail.label_when'), when],
        [t('mail.label_zone'), zoneName(lang, b.timeZone)],
        [t('mail.label_language'), spokenBy(lang, b.language)],
      ],
      quote: b.notes || undefined,
      // built when the message is rendered for sending, not when the outbox row is written
      get attachments() {
        return [attachment(ctx, b, 'PUBLISH')]
      },
      replyTo: b.email,
    }
  },
}

/** A booking the agency cancelled: which call, and where to choose another time. */
export interface CancelledCall {
  name: string
  slotStart: string
  timeZone: string
  /** The visitor cancelled it themselves, from their booking's page. */
  byVisitor?: boolean
  /** Its cancellation for the calendar (absent in e-mails written before it was sent). */
  invitation?: CancelledBooking
}

/** The visitor's notice that the agency cancelled their call, with the way to book again. */
export const bookingCancelled: MailTemplate<CancelledCall> = {
  category: 'transactional',
  letter: (ctx, b) => {
    const { t, lang } = ctx
    const when = describeSlot(b.slotStart, lang, b.timeZone)
    const intro = b.byVisitor
      ? t('mail.cancelled_intro_visitor')
      : t('mail.cancelled_intro', {
          length: callLength(t, b.slotStart, b.invitation?.slotEnd),
        })
    return {
      subject: t('mail.cancelled_subject', { when }),
      preview: intro,
      greeting: t('mail.greeting', { name: b.name }),
      paragraphs: [intro, t('mail.cancelled_rebook')],
      details: [
        [t('mail.label_when'), when],
        [t('mail.label_zone'), zoneName(lang, b.timeZone)],
      ],
      action: { label: t('mail.cancelled_action'), url: ctx.page('/book') },
      closing: t('mail.signoff'),
      // built when the message is rendered for sending, not when the outbox row is written
      get attachments() {
        return b.invitation ? [cancelAttachment(ctx, b.invitation)] : []
      },
    }
  },
}

/** A booking the agency moved: the call at its new time, and the time it had before. */
export interface MovedCall extends BookedCall {
  previousStart: string
}

/**
 * The visitor's notice that their call moved, with the new invitation attached. The booking
 * keeps its token, so the invitation's UID and its link stay the same and calendars update it.
 */
export const bookingMoved: MailTemplate<MovedCall> = {
  category: 'transactional',
  letter: async (ctx, b) => {
    const { t, lang, config } = ctx
    const when = describeSlot(b.slotStart, lang, b.timeZone)
    const links = await visitorLinks(ctx, b)
    const intro = t('mail.moved_intro', { length: callLength(t, b.slotStart, b.slotEnd) })
    return {
      subject: t('mail.moved_subject', { when }),
      preview: intro,
      greeting: t('mail.greeting', { name: b.name }),
      paragraphs: [intro, t('mail.moved_calendar')],
      details: [
        [t('mail.label_when'), when],
        [t('mail.label_previous'), describeSlot(b.previousStart, lang, b.timeZone)],
        [t('mail.label_zone'), zoneName(lang, b.timeZone)],
      ],
      action: { label: t('mail.booking_action'), url: config.siteUrl + icsPath(b.token) },
      links,
      closing: `${t('mail.booking_outro')}\n\n${t('mail.signoff')}`,
      // built when the message is rendered for sending, not when the outbox row is written
      get attachments() {
        return [attachment(ctx, b, 'REQUEST')]
      },
    }
  },
}

/** What a visitor changed themselves, for the agency: who, which call, and what became of it. */
export interface ChangedCall {
  name: string
  email: string
  slotStart: string
  /** The new time of a moved call; absent for a cancelled one. */
  movedTo?: string
  agencyTimeZone: string
  /**
   * The call's invitation as it now stands: the new time, or its cancellation (`cancelled`),
   * for the calendar that took the agency's notice of the booking (absent in older e-mails).
   */
  invitation?: CancelledBooking & { cancelled?: boolean }
}

/** The agency's notice that a visitor moved or cancelled their call from its page. */
export const agencyBookingChanged: MailTemplate<ChangedCall> = {
  category: 'agency',
  letter: (ctx, b) => {
    const { t, lang } = ctx
    const invitation = b.invitation
    const zone = b.agencyTimeZone
    const at = (iso: string) => inZone(lang, zone, iso)
    const subject = b.movedTo
      ? t('mail.agency_moved_subject', { name: b.name, when: at(b.movedTo) })
      : t('mail.agency_cancelled_subject', { name: b.name, when: at(b.slotStart) })
    return {
      subject,
      preview: subject,
      paragraphs: [t(b.movedTo ? 'mail.agency_moved_intro' : 'mail.agency_cancelled_intro')],
      details: [
        [t('mail.label_name'), b.name],
        [t('mail.label_email'), b.email],
        ...(b.movedTo
          ? ([
              [t('mail.label_when'), at(b.movedTo)],
              [t('mail.label_previous'), at(b.slotStart)],
            ] as [string, string][])
          : ([[t('mail.label_when'), at(b.slotStart)]] as [string, string][])),
      ],
      replyTo: b.email,
      get attachments() {
        if (!invitation) return []
        return [
          invitation.cancelled
            ? cancelAttachment(ctx, invitation)
            : attachment(ctx, { ...invitation, timeZone: zone, language: lang }, 'PUBLISH'),
        ]
      },
    }
  },
}

/** A reminder of a coming call, a day or an hour before, in the visitor's language and zone. */
export const bookingReminder: MailTemplate<BookedCall & { hours: 24 | 1 }> = {
  category: 'transactional',
  letter: async (ctx, b) => {
    const { t, lang, config } = ctx
    const when = describeSlot(b.slotStart, lang, b.timeZone)
    const soon = b.hours === 1 ? 'mail.reminder_hour' : 'mail.reminder_day'
    return {
      subject: t(`${soon}_subject`, { when }),
      preview: t(soon, { when }),
      greeting: t('mail.greeting', { name: b.name }),
      paragraphs: [t(soon, { when })],
      details: [
        [t('mail.label_when'), when],
        [t('mail.label_zone'), zoneName(lang, b.timeZone)],
      ],
      ...(b.meetingUrl
        ? { action: { label: t('mail.booking_meeting'), url: b.meetingUrl } }
        : { action: { label: t('mail.booking_action'), url: config.siteUrl + icsPath(b.token) } }),
      links: (await visitorLinks(ctx, b)).filter((l) => l.url !== b.meetingUrl),
      closing: t('mail.signoff'),
    }
  },
}
