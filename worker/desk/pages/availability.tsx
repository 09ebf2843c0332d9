import { zoneName } from '../../../client/islands/booking-form'
import { inputClass, labelClass } from '../../../client/components/field'
import type { Availability } from '../../booking/slots'
import { usePage } from '../../render/context'
import { DeskHeader, DeskNotice } from './leads'

/** The form's values as typed (a refused form shows them again) and its field issues. */
export interface AvailabilityForm {
  values: Record<string, string>
  issues: Record<string, string>
  saved?: boolean
}

const pad = (n: number) => String(n).padStart(2, '0')
export const hhmm = (minutes: number) => `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`

/** The saved availability as the form's values. */
export function formValues(a: Availability): Record<string, string> {
  const values: Record<string, string> = {
    notice_hours: String(a.minNoticeMinutes / 60),
    days_ahead: String(a.daysAhead),
    buffer: String(a.bufferMinutes),
    length: String(a.lengthMinutes),
    daily_max: String(a.dailyMax),
    days_off: a.daysOff.join('\n'),
  }
  for (let d = 1; d <= 7; d++) {
    const h = a.hours[d]
    if (h) values[`open_${d}`] = '1'
    values[`start_${d}`] = hhmm(h?.start ?? 9 * 60)
    values[`end_${d}`] = hhmm(h?.end ?? 17 * 60)
  }
  return values
}

export const LENGTHS = [15, 20, 30, 45, 60, 90] as const

/**
 * /desk/bookings/availability: when the agency takes calls, in its own zone. One plain form:
 * the hours of each weekday, days off, notice, how far ahead, the buffer between meetings, a
 * meeting's length and a daily maximum.
 */
export function AvailabilityPage({
  form,
  timeZone,
  feedUrl,
}: {
  form: AvailabilityForm
  timeZone: string
  /** The private calendar feed of the bookings (calendar/feed.ts). */
  feedUrl: string
}) {
  const { t, lang } = usePage()
  const a = (key: string, params?: Record<string, string | number>) =>
    t(`desk_bookings.availability.${key}` as 'desk_bookings.availability.title', params)
  const v = form.values
  const issue = (name: string) =>
    form.issues[name] ? (
      <p id={`${name}-error`} className="m-0 mt-1 text-sm text-red-700">
        {a(`errors.${form.issues[name]}`)}
      </p>
    ) : null
  const described = (name: string, hint = false) =>
    [hint && `${name}-hint`, form.issues[name] && `${name}-error`].filter(Boolean).join(' ') ||
    undefined
  const weekday = new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' })
  const number = (name: string, min: number, max: number, hint?: string) => (
    <div>
      <label htmlFor={`f-${name}`} className={labelClass}>
        {a(`fields.${name}`)}
      </label>
      <input
        id={`f-${name}`}
        name={name}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        required
        defaultValue={v[name]}
        aria-invalid={form.issues[name] ? true : undefined}
        aria-describedby={described(name, !!hint)}
        className={inputClass}
      />
      {hint && (
        <p id={`${name}-hint`} className="m-0 mt-1 text-xs text-ink-600">
          {hint}
        </p>
      )}
      {issue(name)}
    </div>
  )
  return (
    <>
      <DeskHeader title={a('title')} section="/desk/bookings" />
      <div className="container space-y-6 pb-16">
        <p className="m-0 text-sm">
          <a href="/desk/bookings" className="font-semibold text-brand-700">
            {a('back')}
          </a>
        </p>
        <p className="m-0 max-w-3xl text-ink-700">
          {a('intro')} {t('desk_bookings.zone', { zone: zoneName(lang, timeZone) })}
        </p>
        {form.saved && <DeskNotice>{a('saved')}</DeskNotice>}
        {Object.keys(form.issues).length > 0 && (
          <p role="alert" className="m-0 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
            {a('errors.fields')}
          </p>
        )}
        <form
          method="post"
          action="/desk/bookings/availability"
          className="card space-y-6"
          noValidate
        >
          <fieldset className="m-0 border-0 p-0">
            <legend className="mb-3 text-lg font-bold">{a('hours')}</legend>
            <div className="grid gap-3">
              {[1, 2, 3, 4, 5, 6, 7].map((d) => {
                // 2024-01-01 was a Monday: day d of that week names the weekday
                const name = weekday.format(new Date(Date.UTC(2024, 0, d)))
                return (
                  <div key={d} className="grid items-center gap-3 sm:grid-cols-[10rem_1fr_1fr]">
                    <label className="flex items-center gap-2 font-semibold">
                      <input
                        type="checkbox"
                        name={`open_${d}`}
                        value="1"
                        defaultChecked={v[`open_${d}`] === '1'}
                        className="h-5 w-5"
                      />
                      {name}
                    </label>
                    <div>
                      {/* seen: "Opens"; heard: "Opens (Monday)" */}
                      <label htmlFor={`f-start-${d}`} className="mb-1 block text-xs text-ink-700">
                        {a('opens')}
                        <span className="sr-only"> ({name})</span>
                      </label>
                      <input
                        id={`f-start-${d}`}
                        name={`start_${d}`}
                        type="time"
                        step={900}
                        defaultValue={v[`start_${d}`]}
                        aria-invalid={form.issues[`hours_${d}`] ? true : undefined}
                        aria-describedby={described(`hours_${d}`)}
                        className={inputClass}
                      />
                    </div>
                    <div>
                      {/* seen: "Opens"; heard: "Opens (Monday)" */}
                      <label htmlFor={`f-end-${d}`} className="mb-1 block text-xs text-ink-700">
                        {a('closes')}
                        <span className="sr-only"> ({name})</span>
                      </label>
                      <input
                        id={`f-end-${d}`}
                        name={`end_${d}`}
                        type="time"
                        step={900}
                        defaultValue={v[`end_${d}`]}
                        aria-invalid={form.issues[`hours_${d}`] ? true : undefined}
                        className={inputClass}
                      />
                      {issue(`hours_${d}`)}
                    </div>
                  </div>
                )
              })}
            </div>
            <p className="m-0 mt-2 text-xs text-ink-600">{a('hours_hint')}</p>
          </fieldset>
          <div>
            <label htmlFor="f-days_off" className={labelClass}>
              {a('fields.days_off')}
            </label>
            <textarea
              id="f-days_off"
              name="days_off"
              rows={4}
              dir="ltr"
              defaultValue={v.days_off}
              aria-invalid={form.issues.days_off ? true : undefined}
              aria-describedby={described('days_off', true)}
              className={`${inputClass} font-mono text-sm`}
            />
            <p id="days_off-hint" className="m-0 mt-1 text-xs text-ink-600">
              {a('days_off_hint')}
            </p>
            {issue('days_off')}
          </div>
          <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            <div>
              <label htmlFor="f-length" className={labelClass}>
                {a('fields.length')}
              </label>
              <select id="f-length" name="length" defaultValue={v.length} className={inputClass}>
                {LENGTHS.map((m) => (
                  <option key={m} value={m}>
                    {t.plural('desk_bookings.availability.minutes', m)}
                  </option>
                ))}
              </select>
            </div>
            {number('buffer', 0, 240, a('buffer_hint'))}
            {number('daily_max', 0, 48, a('daily_max_hint'))}
            {number('notice_hours', 0, 1440)}
            {number('days_ahead', 1, 365)}
          </div>
          <button type="submit" className="btn-primary">
            {a('save')}
          </button>
        </form>
        <section aria-labelledby="feed-title" className="card space-y-3">
          <h2 id="feed-title" className="m-0 text-lg font-bold">
            {t('desk_bookings.feed_title')}
          </h2>
          <p className="m-0 text-sm text-ink-700">{t('desk_bookings.feed_text')}</p>
          <p className="m-0 break-all rounded-lg bg-slate-50 p-3 font-mono text-sm" dir="ltr">
            {feedUrl}
          </p>
          <form method="post" action="/desk/bookings/feed">
            <button type="submit" className="btn-ghost">
              {t('desk_bookings.feed_renew')}
            </button>
          </form>
        </section>
      </div>
    </>
  )
}
