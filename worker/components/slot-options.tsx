import { formatInTimeZone } from 'date-fns-tz'
import type { Lang } from '../../client/lib/languages'
import { slotOption } from '../booking/invitation'
import type { Translator } from '../i18n/translator'

/** Items grouped by their day in `timeZone`, in order. */
export function byDay<T>(items: T[], startOf: (item: T) => string, timeZone: string) {
  const days = new Map<string, T[]>()
  for (const item of items) {
    const day = formatInTimeZone(new Date(startOf(item)), timeZone, 'yyyy-MM-dd')
    days.set(day, [...(days.get(day) ?? []), item])
  }
  return [...days.values()]
}

/**
 * A move form's `<option>`s, by day in `zone`: the free slots and the booking's own time, named
 * as its current one (the form starts on it). The visitor's booking page and the desk share it;
 * the formatters are made once, for every booking a page lists. `current: false`: `own` is the
 * time a visitor chose but has not booked (the form again after a refused post), not named so.
 */
export function slotChoices(t: Translator, lang: Lang, zone: string) {
  const dayOf = new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeZone: zone })
  const optionOf = slotOption(lang, zone)
  return (slots: string[], own: string, current = true) =>
    byDay([...new Set([...slots, own])].sort(), (s) => s, zone).map((day) => (
      <optgroup key={day[0]} label={dayOf.format(new Date(day[0]))}>
        {day.map((s) => (
          <option key={s} value={s}>
            {s === own && current
              ? t('booking.current_time', { when: optionOf.format(new Date(s)) })
              : optionOf.format(new Date(s))}
          </option>
        ))}
      </optgroup>
    ))
}
