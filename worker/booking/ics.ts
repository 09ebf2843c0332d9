/** RFC 5545 text: backslash, semicolon, comma and line breaks escaped, other controls dropped. */
const escapeText = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n?|\n/g, '\\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')

/** Lines longer than 75 octets continue on the next line after a space (RFC 5545 §3.1). */
function fold(line: string) {
  const bytes = new TextEncoder().encode(line)
  if (bytes.length <= 75) return line
  const parts: string[] = []
  let current = ''
  let size = 0
  for (const ch of line) {
    const n = new TextEncoder().encode(ch).length
    if (size + n > (parts.length ? 74 : 75)) {
      parts.push(current)
      current = ''
      size = 0
    }
    current += ch
    size += n
  }
  parts.push(current)
  return parts.join('\r\n ')
}

/** A parameter value (a name): no quotes, backslashes or line breaks can end it early. */
const paramText = (s: string) =>
  s
    .replace(/["\\]/g, '')
    .replace(/[\r\n]+/g, ' ')
    .trim()

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

export interface Invitation {
  /** The same for the booking's whole life: calendar apps update the event it names. */
  uid: string
  /** One more at every change (RFC 5545 §3.8.7.4): the newest version wins. */
  sequence: number
  start: Date
  end: Date
  /** Where to meet: the video room's address. */
  location?: string
  /**
   * REQUEST for the invitation e-mailed to the visitor (iTIP, RFC 5546 §3.2.2: their calendar
   * app takes it as a meeting the agency organises, which a later CANCEL removes), PUBLISH for a
   * file served or the agency's own notice, CANCEL for a call cancelled (§3.2.5); null for a
   * calendar's own copy (RFC 4791 §4.1).
   */
  method?: 'REQUEST' | 'PUBLISH' | 'CANCEL' | null
  /** CANCELLED for a call that will not take place (with METHOD:CANCEL). */
  status?: 'CONFIRMED' | 'CANCELLED'
  summary: string
  description: string
  organizerEmail: string
  organizerName: string
  attendeeEmail: string
  attendeeName: string
  url: string
}

/** One event's lines. */
const event = (i: Invitation, now: Date) => [
  'BEGIN:VEVENT',
  `UID:${i.uid}`,
  `SEQUENCE:${i.sequence}`,
  `DTSTAMP:${stamp(now)}`,
  `DTSTART:${stamp(i.start)}`,
  `DTEND:${stamp(i.end)}`,
  `SUMMARY:${escapeText(i.summary)}`,
  `DESCRIPTION:${escapeText(i.description)}`,
  ...(i.location ? [`LOCATION:${escapeText(i.location)}`] : []),
  `URL:${i.url}`,
  `ORGANIZER;CN="${paramText(i.organizerName)}":mailto:${i.organizerEmail}`,
  // the visitor chose the time: accepted already, no reply asked of them
  `ATTENDEE;CN="${paramText(i.attendeeName)}";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:${i.attendeeEmail}`,
  `STATUS:${i.status ?? 'CONFIRMED'}`,
  'END:VEVENT',
]

/**
 * A calendar of events (the agency's private feed), as a .ics file. `refreshMinutes`: how often
 * a subscribed calendar app should read it again (RFC 7986's REFRESH-INTERVAL, and Outlook's
 * X-PUBLISHED-TTL); without it each app keeps its own default, up to a day.
 */
export function calendarFile(
  events: Invitation[],
  {
    now = new Date(),
    method = 'PUBLISH' as Invitation['method'],
    name = '',
    refreshMinutes = 0,
  } = {},
): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Northstar Growth//Booking//EN',
    'CALSCALE:GREGORIAN',
    ...(method === null ? [] : [`METHOD:${method}`]),
    ...(name ? [`NAME:${escapeText(name)}`, `X-WR-CALNAME:${escapeText(name)}`] : []),
    ...(refreshMinutes
      ? [
          `REFRESH-INTERVAL;VALUE=DURATION:PT${refreshMinutes}M`,
          `X-PUBLISHED-TTL:PT${refreshMinutes}M`,
        ]
      : []),
    ...events.flatMap((e) => event(e, now)),
    'END:VCALENDAR',
  ]
  return lines.map(fold).join('\r\n') + '\r\n'
}

/** A calendar invitation for one consultation, as a .ics file. */
export const invitation = (i: Invitation, now = new Date()) =>
  calendarFile([i], { now, method: i.method === undefined ? 'PUBLISH' : i.method })
