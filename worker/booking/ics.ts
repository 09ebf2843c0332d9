import { SLOT_MINUTES } from './slots'

/** RFC 5545 text: backslash, semicolon, comma and newlines escaped. */
const escapeText = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n')

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
  uid: string
  start: Date
  summary: string
  description: string
  organizerEmail: string
  organizerName: string
  attendeeEmail: string
  attendeeName: string
  url: string
}

/** A calendar invitation for one consultation, as a .ics file. */
export function invitation(i: Invitation, now = new Date()): string {
  const end = new Date(i.start.getTime() + SLOT_MINUTES * 60_000)
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Northstar Growth//Booking//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${i.uid}`,
    `DTSTAMP:${stamp(now)}`,
    `DTSTART:${stamp(i.start)}`,
    `DTEND:${stamp(end)}`,
    `SUMMARY:${escapeText(i.summary)}`,
    `DESCRIPTION:${escapeText(i.description)}`,
    `URL:${i.url}`,
    `ORGANIZER;CN="${paramText(i.organizerName)}":mailto:${i.organizerEmail}`,
    `ATTENDEE;CN="${paramText(i.attendeeName)}";ROLE=REQ-PARTICIPANT:mailto:${i.attendeeEmail}`,
    'STATUS:CONFIRMED',
    'END:VEVENT',
    'END:VCALENDAR',
  ]
  return lines.map(fold).join('\r\n') + '\r\n'
}
