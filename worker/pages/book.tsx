import { formatInTimeZone } from 'date-fns-tz'
import type { Context } from 'hono'
import BookingForm from '../../client/islands/booking-form'
import { errorTexts } from '../components/form-texts'
import { PageHero } from '../components/page-parts'
import { findBooking, type Booking } from '../db/bookings'
import type { AppEnv } from '../env'
import { usePage } from '../render/context'
import { invitationFor } from '../booking/invitation'

/** The built-in booking page; `?embed=1` is the same page inside the scheduling dialog. */
export function BookPage({
  slots,
  agencyTimeZone,
  embed,
}: {
  slots: string[]
  agencyTimeZone: string
  embed: boolean
}) {
  const { t, lang } = usePage()
  const form = (
    <BookingForm
      slots={slots}
      agencyTimeZone={agencyTimeZone}
      lang={lang}
      labels={{
        chooseTime: t('booking.choose_time'),
        timesIn: t('booking.times_in', { zone: '{{zone}}' }),
        noSlots: t('booking.no_slots'),
        yourDetails: t('booking.your_details'),
        name: t('booking.name'),
        email: t('booking.email'),
        notes: t('booking.notes'),
        submit: t('booking.submit'),
        submitting: t('booking.submitting'),
        confirmedTitle: t('booking.confirmed_title'),
        confirmedText: t('booking.confirmed_text', { email: '{{email}}', when: '{{when}}' }),
        addCalendar: t('booking.add_calendar'),
        duration: t('booking.duration'),
        honeypot: t('forms.honeypot'),
      }}
      notices={{
        ...errorTexts(t),
        missingText: t('notices.missing_fields'),
        slotRequired: t('errors.slot_required'),
      }}
    />
  )
  if (embed)
    return (
      <div className="p-4 sm:p-6">
        <h1 className="sr-only">{t('booking.title')}</h1>
        {form}
      </div>
    )
  return (
    <>
      <PageHero
        title={t('booking.title')}
        subtitle={t('booking.subtitle')}
        crumbs={[{ label: t('booking.title') }]}
      />
      <section className="container max-w-4xl pb-16">{form}</section>
    </>
  )
}

/** GET /book/<token>.ics: the visitor's calendar invitation. */
export async function serveInvitation(c: Context<AppEnv>) {
  const token = (c.req.param('file') ?? '').replace(/\.ics$/, '')
  if (!/^[0-9a-f-]{36}$/.test(token)) return c.notFound()
  let booking: Booking | null
  try {
    booking = await findBooking(c.env.DB, token)
  } catch (err) {
    console.error('D1 read failed', err)
    return c.text(c.var.t('errors.unavailable'), 503)
  }
  if (!booking) return c.notFound()
  const day = formatInTimeZone(new Date(booking.slotStart), 'UTC', 'yyyy-MM-dd')
  return c.body(invitationFor(c.var, booking), 200, {
    'Content-Type': 'text/calendar; charset=utf-8',
    'Content-Disposition': `attachment; filename="consultation-${day}.ics"`,
    'Cache-Control': 'private, no-store',
  })
}
