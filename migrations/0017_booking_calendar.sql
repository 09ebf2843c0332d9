-- Booking that knows the agency's calendar (README: "Booking"). The agency's availability
-- is edited in the desk; wrangler.toml's BOOKING_* vars are its defaults until then.
CREATE TABLE booking_settings (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  -- JSON: hours per weekday, days off, notice, days ahead, buffer, length, daily maximum
  settings TEXT NOT NULL,
  updated_by TEXT NOT NULL,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- A meeting's end (its length may change in the desk; the bookings made keep theirs).
ALTER TABLE bookings ADD COLUMN slot_end TEXT;
UPDATE bookings SET slot_end = strftime('%Y-%m-%dT%H:%M:%fZ', slot_start, '+30 minutes');
CREATE INDEX bookings_by_end ON bookings (slot_end);
-- the event's UID, fixed at booking (the visitor's invitation and the agency's calendar share it;
-- NULL for older bookings: booking-<token>@<site host>, as their invitations said)
ALTER TABLE bookings ADD COLUMN uid TEXT;
-- the invitation's SEQUENCE (RFC 5545): one more at every move, so calendars update the event
ALTER TABLE bookings ADD COLUMN sequence INTEGER NOT NULL DEFAULT 0;
-- where to meet: a fixed video room, or one of its own (MEETING_URL / MEETING_ROOM_BASE)
ALTER TABLE bookings ADD COLUMN meeting_url TEXT;
-- each reminder once (the cron claims it by setting the time)
ALTER TABLE bookings ADD COLUMN reminded_24h_at TEXT;
ALTER TABLE bookings ADD COLUMN reminded_1h_at TEXT;

-- The agency's calendar (CALDAV_URL, or CALENDAR_ICS_URL to read only). A booking's event is
-- written there after the booking: 'pending' until the calendar took it, then 'synced' (NULL:
-- no calendar configured). A cancelled booking's event waits here until the calendar deleted it.
ALTER TABLE bookings ADD COLUMN calendar_state TEXT;
ALTER TABLE bookings ADD COLUMN calendar_error TEXT;
CREATE TABLE calendar_deletions (
  uid TEXT PRIMARY KEY,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
-- The busy times last read from the calendar (JSON [[start ms, end ms], …]) and when; the
-- slots page answers from here and never waits on the calendar. The last error, for the desk.
CREATE TABLE calendar_status (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  busy TEXT NOT NULL DEFAULT '[]',
  range_end TEXT,
  fetched_at TEXT,
  error TEXT,
  error_at TEXT
);
