import { formatInTimeZone } from 'date-fns-tz'
import type { Context } from 'hono'
import BookingForm, { zoneName } from '../../client/islands/booking-form'
import { Icon } from '../components/page-icon'
import { errorTexts } from '../components/form-texts'
import { PageHero } from '../components/page-parts'
import { findBooking, findCancellation, type Booking, type CancelledBooking } from '../db/bookings'
import type { AppEnv } from '../env'
import { usePage } from '../render/context'
import { cancellationFor, describeSlot, icsPath, invitationFor } from '../booking/invitation'
import { bookingLinkProblem, formResult } from '../components/form-result'
import { currentSlots, managedBooking } from '../services/bookings'
import { errorPage } from './error-page'
import { slotChoices } from '../components/slot-options'

/**
 * The built-in booking page; `?embed=1` is the same page inside the scheduling dialog. It says
 * how long a call is from the desk's setting (`lengthMinutes`), never a fixed 30 minutes.
 */
export function BookPage({
  slots,
  agencyTimeZone,
  lengthMinutes,
  embed,
}: {
  slots: string[]
  agencyTimeZone: string
  lengthMinutes: number
  embed: boolean
}) {
  const { t, lang, challenge } = usePage()
  const form = (
    <BookingForm
      challenge={challenge}
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
        confirmedNotMailedText: t('booking.confirmed_not_mailed_text', {
          email: '{{email}}',
          when: '{{when}}',
        }),
        addCalendar: t('booking.add_calendar'),
        manage: t('booking.manage_link'),
        duration: t.plural('booking.duration', lengthMinutes),
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
  let cancelled: CancelledBooking | null = null
  try {
    booking = await findBooking(c.env.DB, token)
    if (!booking) cancelled = await findCancellation(c.env.DB, token)
  } catch (err) {
    console.error('D1 read failed', err)
    return errorPage(c, 503)
  }
  const call = booking ?? cancelled
  if (!call) return c.notFound()
  // a cancelled call: the cancel, so that a calendar that has it removes it
  const ics = booking ? invitationFor(c.var, booking) : cancellationFor(c.var, call)
  const day = formatInTimeZone(new Date(call.slotStart), 'UTC', 'yyyy-MM-dd')
  return c.body(ics, 200, {
    'Content-Type': 'text/calendar; charset=utf-8',
    'Content-Disposition': `attachment; filename="consultation-${day}.ics"`,
    'Cache-Control': 'private, no-store',
  })
}

/**
 * /book/manage?token=: the visitor's own booking, from the link in its e-mail (sealed, for that
 * one booking): when it is, where to meet, another time to move it to, or cancel it. Plain
 * forms: they work without JavaScript. After a move or a cancel the forms' redirect comes back
 * here with `done=`, and the page says what became of it.
 */
export async function serveManageBooking(c: Context<AppEnv>) {
  const token = c.req.query('token') ?? ''
  const done = c.req.query('done')
  const found = await managedBooking(c, token)
  c.header('Cache-Control', 'no-store')
  const t = c.var.t
  if (!found.booking)
    return done === 'cancelled' && found.problem === 'gone'
      ? formResult(c, 200, t('booking.cancelled_title'), t('booking.cancelled_text'), {
          href: '/book',
          label: t('booking.choose_time'),
        })
      : bookingLinkProblem(c, found.problem)
  // the booking's own time, and those its buffer kept, are free for it
  const { slots } = await currentSlots(c, { except: found.booking.id })
  return c.render(
    <ManageBookingPage
      booking={found.booking}
      slots={slots}
      token={token}
      moved={done === 'moved'}
    />,
    {
      title: `${t('booking.manage_title')} | ${t('meta.title_suffix')}`,
      description: t('booking.manage_text'),
    },
  )
}

function ManageBookingPage({
  booking,
  slots,
  token,
  moved,
}: {
  booking: Booking
  slots: string[]
  token: string
  /** Just moved here (the move's redirect): say so, with the updated invitation. */
  moved: boolean
}) {
  const { t, lang } = usePage()
  const zone = booking.timeZone
  const when = describeSlot(booking.slotStart, lang, zone)
  return (
    <>
      <PageHero
        title={t('booking.manage_title')}
        subtitle={t('booking.manage_when', { when })}
        crumbs={[{ label: t('booking.manage_title') }]}
      />
      <section className="container max-w-3xl space-y-6 pb-16">
        {moved && (
          <div role="status" className="card bg-brand-50">
            <h2 className="m-0 text-xl font-bold">{t('booking.moved_title')}</h2>
            <p className="m-0 mt-2 text-ink-700">{t('booking.moved_text', { when })}</p>
            <a href={icsPath(booking.token)} className="btn-primary mt-4">
              <Icon name="download" />
              {t('booking.add_calendar')}
            </a>
          </div>
        )}
        <p className="m-0 text-ink-700">
          {t('booking.manage_zone', { zone: zoneName(lang, zone) })}
          {booking.meetingUrl && (
            <>
              {' '}
              <a href={booking.meetingUrl} className="font-semibold text-brand-700">
                {t('booking.meeting_link')}
              </a>
            </>
          )}
        </p>
        <form method="post" action="/api/bookings/manage/move" className="card space-y-4">
          <h2 className="m-0 text-xl font-bold">{t('booking.reschedule')}</h2>
          <input type="hidden" name="token" value={token} />
          {slots.some((s) => s !== booking.slotStart) ? (
            <>
              <div>
                <label
                  htmlFor="manage-slot"
                  className="mb-1 block text-sm font-medium text-ink-700"
                >
                  {t('booking.new_time')}
                </label>
                <select
                  id="manage-slot"
                  name="slot"
                  required
                  defaultValue={booking.slotStart}
                  className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-ink-900"
                >
                  {/* the picker starts on the booking's own time */}
                  {slotChoices(t, lang, zone)(slots, booking.slotStart)}
                </select>
              </div>
              <button type="submit" className="btn-primary">
                {t('booking.reschedule_button')}
              </button>
            </>
          ) : (
            <p className="m-0 text-ink-700">{t('booking.no_slots')}</p>
          )}
        </form>
        <form method="post" action="/api/bookings/manage/cancel" className="card space-y-4">
          <h2 className="m-0 text-xl font-bold">{t('booking.cancel_title')}</h2>
          <p className="m-0 text-ink-700">{t('booking.cancel_text')}</p>
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="btn-ghost">
            {t('booking.cancel_button')}
          </button>
        </form>
      </section>
    </>
  )
}
