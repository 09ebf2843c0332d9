import {
  authConfirmSignup,
  authEmailChange,
  authEmailChangeCurrent,
  authMagicLink,
  authReauthentication,
  authRecovery,
} from './auth'
import {
  agencyBooking,
  agencyBookingChanged,
  bookingCancelled,
  bookingConfirmation,
  bookingMoved,
  bookingReminder,
} from './booking'
import { agencyContact } from './contact'
import { dataRequest, newsletter, newsletterTest, subscribeConfirm } from './consent'
import type { MailTemplate } from './context'
import { agencyDigest } from './digest'
import { teamInvite } from './team'
import { guide } from './guide'
import { webhookDisabled } from './webhook'
import { welcome } from './welcome'

/** Every kind of e-mail the site sends, by the name the outbox stores. */
export const TEMPLATES = {
  welcome,
  subscribe_confirm: subscribeConfirm,
  newsletter,
  newsletter_test: newsletterTest,
  data_request: dataRequest,
  guide,
  booking_confirmation: bookingConfirmation,
  agency_booking: agencyBooking,
  booking_cancelled: bookingCancelled,
  booking_moved: bookingMoved,
  agency_booking_changed: agencyBookingChanged,
  booking_reminder: bookingReminder,
  agency_contact: agencyContact,
  agency_digest: agencyDigest,
  auth_recovery: authRecovery,
  auth_magic_link: authMagicLink,
  auth_reauthentication: authReauthentication,
  auth_confirm_signup: authConfirmSignup,
  auth_email_change: authEmailChange,
  auth_email_change_current: authEmailChangeCurrent,
  team_invite: teamInvite,
  webhook_disabled: webhookDisabled,
} satisfies Record<string, MailTemplate<never>>

export type MailKind = keyof typeof TEMPLATES
export type MailData<K extends MailKind> = Parameters<(typeof TEMPLATES)[K]['letter']>[1]

export const isMailKind = (kind: string): kind is MailKind => kind in TEMPLATES
