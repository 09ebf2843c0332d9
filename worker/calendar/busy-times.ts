import ICAL from 'ical.js'
import type { Interval } from '../booking/slots'

/**
 * The busy times in iCalendar text (a CalDAV server's calendar data, or a calendar app's
 * "secret address" feed), between `from` and `to`: every event, its recurrences expanded by
 * ical.js (RRULE, RDATE, EXDATE, moved or cancelled occurrences), except those marked free
 * (TRANSP:TRANSPARENT), cancelled ones, and the site's own bookings (`ours`: the bookings
 * table already holds them, with their own buffer).
 */
export function busyTimes(
  texts: string[],
  from: number,
  to: number,
  ours: (uid: string) => boolean = () => false,
): Interval[] {
  const busy: Interval[] = []
  const rangeStart = ICAL.Time.fromJSDate(new Date(from), true)
  const rangeEnd = ICAL.Time.fromJSDate(new Date(to), true)
  for (const text of texts) {
    let calendar: ICAL.Component
    try {
      calendar = new ICAL.Component(ICAL.parse(text))
    } catch {
      // one unreadable object does not hide the others
      continue
    }
    for (const zone of calendar.getAllSubcomponents('vtimezone'))
      ICAL.TimezoneService.register(zone)
    const events = calendar.getAllSubcomponents('vevent')
    const masters = events.filter((e) => !e.hasProperty('recurrence-id'))
    for (const master of masters) {
      const uid = String(master.getFirstPropertyValue('uid') ?? '')
      if (ours(uid) || !isBusy(master)) continue
      const event = new ICAL.Event(master)
      for (const exception of events)
        if (
          exception !== master &&
          exception.hasProperty('recurrence-id') &&
          String(exception.getFirstPropertyValue('uid')) === uid
        )
          event.relateException(exception)
      if (!event.isRecurring()) {
        push(busy, event.startDate, event.endDate, from, to)
        continue
      }
      const occurrences = event.iterator()
      // a rule without end stops at the range; a runaway one after 2,000 occurrences
      for (let n = 0, next = occurrences.next(); next && n < 2000; n++, next = occurrences.next()) {
        if (next.compare(rangeEnd) >= 0) break
        const details = event.getOccurrenceDetails(next)
        if (!isBusy(details.item.component)) continue
        if (details.endDate.compare(rangeStart) <= 0) continue
        push(busy, details.startDate, details.endDate, from, to)
      }
    }
  }
  return busy.sort((a, b) => a.start - b.start)
}

const isBusy = (event: ICAL.Component) =>
  String(event.getFirstPropertyValue('transp') ?? 'OPAQUE').toUpperCase() !== 'TRANSPARENT' &&
  String(event.getFirstPropertyValue('status') ?? '').toUpperCase() !== 'CANCELLED'

function push(busy: Interval[], start: ICAL.Time, end: ICAL.Time | null, from: number, to: number) {
  const s = start.toJSDate().getTime()
  // an all-day event without DTEND takes its day; a timed one without takes no time
  const e = end ? end.toJSDate().getTime() : start.isDate ? s + 86_400_000 : s
  if (e > from && s < to) busy.push({ start: s, end: e })
}
