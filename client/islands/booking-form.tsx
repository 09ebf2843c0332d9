import { useMemo, useState, useSyncExternalStore, type FormEvent, useRef } from 'react'
import { PersonFields, SubmitButton } from '../components/field'
import { Icon } from '../components/icon'
import { defineIsland } from '../island'
import { reportLead } from '../lib/trackers'
import { useTypedChoiceState } from '../lib/typed-value'
import { useHydrated } from '../lib/use-hydrated'
import { formValues, useLeadForm, type ErrorTexts, validateInScript } from '../lib/use-lead-form'
import type { ChallengeConfig } from '../lib/challenge'

export type BookingFormProps = {
  /** The page's Turnstile settings (null: none runs). */
  challenge: ChallengeConfig
  /** Free slot starts, UTC ISO strings. */
  slots: string[]
  agencyTimeZone: string
  lang: string
  labels: {
    chooseTime: string
    /** "{{zone}}" is replaced with the zone the times are shown in. */
    timesIn: string
    noSlots: string
    yourDetails: string
    name: string
    email: string
    notes: string
    submit: string
    submitting: string
    confirmedTitle: string
    /** "{{email}}" and "{{when}}" are filled in. */
    confirmedText: string
    /** The same, when no confirmation could go (the address is over the day's ceiling). */
    confirmedNotMailedText: string
    addCalendar: string
    /** The link to the booking's own page: reschedule or cancel. */
    manage: string
    duration: string
    honeypot: string
  }
  notices: ErrorTexts & { missingText: string; slotRequired: string }
}

type Confirmed = {
  when: string
  icsUrl: string
  manageUrl?: string
  email: string
  mailed?: boolean
}

/** Neither the zone nor hydration changes while the page is open. */
const noChanges = () => () => {}

/**
 * A time zone's name in the page's language: "United Kingdom Time", "Vereinigtes Königreich
 * (Ortszeit)", "توقيت المملكة المتحدة", never the raw "Europe/London". The generic name holds
 * across daylight saving; a zone without one (UTC) gets its specific name instead of an offset.
 */
export function zoneName(lang: string, zone: string, at = new Date()) {
  const name = (timeZoneName: 'longGeneric' | 'long') => {
    try {
      return new Intl.DateTimeFormat(lang, { timeZone: zone, timeZoneName })
        .formatToParts(at)
        .find((p) => p.type === 'timeZoneName')?.value
    } catch {
      return undefined
    }
  }
  const generic = name('longGeneric')
  return (generic && !/\d/.test(generic) ? generic : name('long')) ?? zone.replace(/_/g, ' ')
}

/** Slots grouped by calendar day in `zone`, in order. */
function byDay(slots: string[], zone: string, lang: string) {
  const key = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
  const dayLabel = new Intl.DateTimeFormat(lang, {
    timeZone: zone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  })
  const timeLabel = new Intl.DateTimeFormat(lang, {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
  })
  const days = new Map<string, { label: string; times: { iso: string; label: string }[] }>()
  for (const iso of slots) {
    const date = new Date(iso)
    const k = key.format(date)
    if (!days.has(k)) days.set(k, { label: dayLabel.format(date), times: [] })
    days.get(k)!.times.push({ iso, label: timeLabel.format(date) })
  }
  return [...days.entries()].map(([id, day]) => ({ id, ...day }))
}

/**
 * The built-in booking page (/book): slots of the desk's meeting length in the visitor's time
 * zone. The server renders them in the agency's zone (it cannot know the visitor's); the
 * browser then switches.
 */
function BookingForm({
  slots: initialSlots,
  agencyTimeZone,
  lang,
  labels,
  notices,
  challenge,
}: BookingFormProps) {
  const [slots, setSlots] = useState(initialSlots)
  // The server renders the agency's zone (it cannot know the visitor's); hydrated, the browser's.
  const zone = useSyncExternalStore(
    noChanges,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone || agencyTimeZone,
    () => agencyTimeZone,
  )
  // a time chosen before the script came stays chosen, its day shown (lib/typed-value.ts)
  const [slot, setSlot] = useTypedChoiceState('slot')
  const [day, setDay] = useState<string | null>(null)
  const [confirmed, setConfirmed] = useState<Confirmed | null>(null)
  // Server markup lists every day (works without JavaScript); hydrated, one day at a time.
  const enhanced = useHydrated()
  const challengeSlot = useRef<HTMLDivElement>(null)
  const form = useLeadForm(notices, { config: challenge, action: 'booking', slot: challengeSlot })

  const days = useMemo(() => byDay(slots, zone, lang), [slots, zone, lang])
  const shownDay =
    days.find((d) => d.id === day) ??
    days.find((d) => d.times.some((t) => t.iso === slot)) ??
    days[0]

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const { name = '', email = '', notes = '', website = '' } = formValues(event.currentTarget)
    if (!slot) return form.missing(notices.slotRequired)
    if (!name.trim() || !email.trim()) return form.missing(notices.missingText)
    await form.submit<{
      booking: { when: string; icsUrl: string; manageUrl?: string; mailed?: boolean }
    }>(
      '/api/bookings',
      { slot, name, email, notes, timeZone: zone, website },
      ({ booking }) => {
        setConfirmed({ ...booking, email: email.trim() })
        reportLead('booking')
      },
      (answer) => {
        // Taken meanwhile: show what is still free.
        const fresh = answer.body?.slots
        if (Array.isArray(fresh)) {
          setSlots(fresh as string[])
          setSlot('')
        }
      },
    )
  }

  if (confirmed)
    return (
      <div className="card bg-brand-50" role="status">
        <Icon name="check" className="h-10 w-10 text-brand-700" />
        <h2 className="m-0 mt-3 text-2xl font-bold">{labels.confirmedTitle}</h2>
        <p className="m-0 mt-2 text-lg text-ink-700">
          {(confirmed.mailed === false ? labels.confirmedNotMailedText : labels.confirmedText)
            .replace('{{email}}', confirmed.email)
            .replace('{{when}}', confirmed.when)}
        </p>
        <div className="mt-6 flex flex-wrap items-center gap-4">
          <a href={confirmed.icsUrl} download className="btn-primary">
            <Icon name="calendar" />
            {labels.addCalendar}
          </a>
          {confirmed.manageUrl && (
            <a href={confirmed.manageUrl} className="font-semibold text-brand-700">
              {labels.manage}
            </a>
          )}
        </div>
      </div>
    )

  const busy = form.state === 'submitting'
  return (
    <form
      ref={validateInScript}
      method="post"
      action="/api/bookings"
      onSubmit={onSubmit}
      className="relative space-y-8"
    >
      <input type="hidden" name="timeZone" value={zone} />
      <fieldset className="m-0 min-w-0 border-0 p-0">
        <legend className="text-xl font-bold">{labels.chooseTime}</legend>
        <p className="m-0 mt-1 text-sm text-ink-600">
          {labels.timesIn.replace('{{zone}}', zoneName(lang, zone))} · {labels.duration}
        </p>
        {days.length === 0 && <p className="m-0 mt-4 text-ink-700">{labels.noSlots}</p>}
        {enhanced && days.length > 0 && (
          <div
            className="mt-4 flex gap-2 overflow-x-auto pb-2"
            role="group"
            aria-label={labels.chooseTime}
          >
            {days.map((d) => (
              <button
                key={d.id}
                type="button"
                aria-pressed={d.id === shownDay?.id}
                onClick={() => setDay(d.id)}
                className="shrink-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-ink-900 aria-[pressed=true]:border-brand-600 aria-[pressed=true]:bg-brand-600 aria-[pressed=true]:text-white"
              >
                {d.label}
              </button>
            ))}
          </div>
        )}
        {(enhanced ? (shownDay ? [shownDay] : []) : days).map((d) => (
          <div key={d.id} className="mt-4">
            <p className="m-0 mb-2 font-semibold" id={`times-${d.id}`}>
              {d.label}
            </p>
            <div
              className="grid grid-cols-3 gap-2 sm:grid-cols-4 md:grid-cols-6"
              role="radiogroup"
              aria-labelledby={`times-${d.id}`}
            >
              {d.times.map((time) => (
                <label
                  key={time.iso}
                  className="flex cursor-pointer items-center justify-center rounded-lg border border-slate-300 bg-white px-2 py-2.5 text-sm font-semibold has-[:checked]:border-brand-600 has-[:checked]:bg-brand-600 has-[:checked]:text-white has-[:focus-visible]:outline has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-accent-500"
                >
                  <input
                    type="radio"
                    name="slot"
                    value={time.iso}
                    checked={slot === time.iso}
                    onChange={() => setSlot(time.iso)}
                    className="sr-only"
                  />
                  {time.label}
                </label>
              ))}
            </div>
          </div>
        ))}
      </fieldset>
      <fieldset className="m-0 grid min-w-0 gap-4 border-0 p-0 sm:grid-cols-2">
        <legend className="mb-2 text-xl font-bold">{labels.yourDetails}</legend>
        <PersonFields prefix="booking" labels={labels} errors={form.fieldErrors} />
        <div className="sm:col-span-2">
          <label htmlFor="booking-notes" className="mb-1 block text-sm font-medium text-ink-700">
            {labels.notes}
          </label>
          <textarea
            id="booking-notes"
            name="notes"
            rows={3}
            maxLength={1000}
            className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-ink-900"
          />
        </div>
      </fieldset>
      <SubmitButton
        busy={busy}
        label={labels.submit}
        busyLabel={labels.submitting}
        icon={<Icon name="calendar" />}
        className="btn-primary w-full sm:w-auto"
      />
      <div ref={challengeSlot} className="empty:hidden" />
    </form>
  )
}

export default defineIsland('booking-form', BookingForm, 'load')
