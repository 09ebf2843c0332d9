import { zoneName } from '../../../client/islands/booking-form'
import { byDay, slotChoices } from '../../components/slot-options'
import type { Booking } from '../../db/bookings'
import { formatDateTime, languageName } from '../../i18n/format'
import { usePage } from '../../render/context'
import { can } from '../../roles'
import { DeskHeader, DeskNotice } from './leads'

/** What the last cancel or move did, as the page after it says (?done=). */
export const DESK_BOOKINGS_DONE = ['cancelled', 'moved', 'unchanged', 'taken', 'gone'] as const
export type DeskBookingsDone = (typeof DESK_BOOKINGS_DONE)[number]

/** The agency's calendar as the desk reports it (null: none connected). */
export interface CalendarReport {
  fetchedAt: string | null
  error: string | null
  errorAt: string | null
  /** Booking changes the calendar has not taken yet. */
  owed: number
}

/**
 * /desk/bookings: the coming consultations by day, in the agency's zone, each with a form to
 * cancel it and one to move it to a free slot. Plain forms: they work without JavaScript.
 */
export function DeskBookingsPage({
  bookings,
  slots,
  timeZone,
  done,
  calendar = null,
}: {
  calendar?: CalendarReport | null
  bookings: Booking[]
  /** Free slots (UTC ISO), soonest first: where a booking may move. */
  slots: string[]
  /** The agency's zone (BOOKING_TIMEZONE): the agenda's days and times. */
  timeZone: string
  done?: DeskBookingsDone
}) {
  const { t, lang, deskRole } = usePage()
  const dayOf = new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeZone })
  const timeOf = new Intl.DateTimeFormat(lang, { timeStyle: 'short', timeZone })
  // the free slots, and the booking's own time first chosen (as the visitor's manage page does)
  const choices = slotChoices(t, lang, timeZone)
  const ok = done === 'cancelled' || done === 'moved'
  return (
    <>
      <DeskHeader title={t('desk_bookings.title')} section="/desk/bookings" />
      <div className="container space-y-6 pb-16">
        <p className="m-0 text-sm text-ink-600">
          {t('desk_bookings.zone', { zone: zoneName(lang, timeZone) })}{' '}
          {bookings.length
            ? t('desk_bookings.count', { count: String(bookings.length) })
            : t('desk_bookings.none')}
        </p>
        <CalendarNotice calendar={calendar} />
        {can(deskRole, 'calendar.manage') && (
          <p className="m-0">
            <a href="/desk/bookings/availability" className="font-semibold text-brand-700">
              {t('desk_bookings.availability_link')}
            </a>
          </p>
        )}
        {done && <DeskNotice ok={ok}>{t(`desk_bookings.done.${done}`)}</DeskNotice>}
        {byDay(bookings, (b) => b.slotStart, timeZone).map((day) => (
          <section key={day[0].slotStart} aria-labelledby={`day-${day[0].id}`}>
            <h2 id={`day-${day[0].id}`} className="m-0 mb-3 text-xl font-bold text-ink-900">
              {dayOf.format(new Date(day[0].slotStart))}
            </h2>
            <ol className="m-0 list-none space-y-3 p-0">
              {day.map((b) => (
                <li key={b.id} className="card grid gap-4 p-4 md:grid-cols-[7rem_1fr_18rem]">
                  <p className="m-0 text-lg font-bold text-brand-700">
                    <time dateTime={b.slotStart}>{timeOf.format(new Date(b.slotStart))}</time>
                  </p>
                  {/* a pasted link or a long address wraps: the card stays the phone's width */}
                  <dl className="m-0 grid min-w-0 grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm [overflow-wrap:anywhere]">
                    <dt className="font-semibold">{t('desk_bookings.booked_by')}</dt>
                    <dd className="m-0">{b.name}</dd>
                    <dt className="font-semibold">{t('desk_bookings.email')}</dt>
                    <dd className="m-0" dir="ltr">
                      <a href={`mailto:${b.email}`} className="text-brand-700">
                        {b.email}
                      </a>
                      {b.unchecked && (
                        <span className="block text-xs font-semibold text-amber-800" dir="auto">
                          {t('desk.unchecked')}
                        </span>
                      )}
                    </dd>
                    <dt className="font-semibold">{t('desk_bookings.language')}</dt>
                    <dd className="m-0">{languageName(lang, b.language)}</dd>
                    <dt className="font-semibold">{t('desk_bookings.visitor_zone')}</dt>
                    <dd className="m-0">{zoneName(lang, b.timeZone)}</dd>
                    {b.notes && (
                      <>
                        <dt className="font-semibold">{t('desk_bookings.notes')}</dt>
                        <dd className="m-0 whitespace-pre-wrap">{b.notes}</dd>
                      </>
                    )}
                  </dl>
                  <div className="space-y-2">
                    <details>
                      <summary className="cursor-pointer font-semibold text-brand-700">
                        {t('desk_bookings.move')}
                      </summary>
                      {slots.length ? (
                        <form
                          method="post"
                          action={`/desk/bookings/${b.id}/move`}
                          className="mt-2 space-y-2"
                        >
                          <label
                            htmlFor={`move-${b.id}`}
                            className="block text-sm font-medium text-ink-700"
                          >
                            {t('desk_bookings.move_to')}
                          </label>
                          <select
                            id={`move-${b.id}`}
                            name="slot"
                            required
                            defaultValue={b.slotStart}
                            className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2"
                          >
                            {choices(slots, b.slotStart)}
                          </select>
                          <p className="m-0 text-xs text-ink-600">{t('desk_bookings.move_hint')}</p>
                          <button type="submit" className="btn-primary py-2 text-sm">
                            {t('desk_bookings.move_confirm')}
                          </button>
                        </form>
                      ) : (
                        <p className="m-0 mt-2 text-sm text-ink-600">
                          {t('desk_bookings.no_free')}
                        </p>
                      )}
                    </details>
                    <details>
                      <summary className="cursor-pointer font-semibold text-red-700">
                        {t('desk_bookings.cancel')}
                      </summary>
                      <form
                        method="post"
                        action={`/desk/bookings/${b.id}/cancel`}
                        className="mt-2 space-y-2"
                      >
                        <p className="m-0 text-xs text-ink-600">{t('desk_bookings.cancel_hint')}</p>
                        <button type="submit" className="btn-danger py-2 text-sm">
                          {t('desk_bookings.cancel_confirm')}
                        </button>
                      </form>
                    </details>
                  </div>
                </li>
              ))}
            </ol>
          </section>
        ))}
      </div>
    </>
  )
}

/** Where the agency's calendar stands: read, down (and since when), changes it still owes. */
function CalendarNotice({ calendar }: { calendar: CalendarReport | null }) {
  const { t, lang, config } = usePage()
  const at = (iso: string | null) => (iso ? formatDateTime(lang, iso, config.timeZone) : '—')
  if (!calendar)
    return <p className="m-0 text-sm text-ink-600">{t('desk_bookings.calendar_none')}</p>
  const down = !!calendar.error
  return (
    <div
      role="status"
      className={`rounded-lg p-3 text-sm ${down || calendar.owed ? 'bg-amber-50 text-amber-900' : 'bg-green-50 text-green-800'}`}
    >
      <p className="m-0">
        {down
          ? t('desk_bookings.calendar_down', {
              error: calendar.error!,
              at: at(calendar.errorAt),
              read: at(calendar.fetchedAt),
            })
          : t('desk_bookings.calendar_ok', { at: at(calendar.fetchedAt) })}
      </p>
      {calendar.owed > 0 && (
        <p className="m-0 mt-1">{t.plural('desk_bookings.calendar_owed', calendar.owed)}</p>
      )}
    </div>
  )
}
