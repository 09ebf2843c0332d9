-- A cancelled booking's invitation, kept after its row goes so that the link of its e-mails
-- (/book/<token>.ics) serves the cancellation (METHOD:CANCEL, the same UID, a higher SEQUENCE)
-- that takes the call out of a calendar that imported it, instead of a 404. Removed by the
-- daily clean-up once the call's time is a day past; erased with the address's other rows.
CREATE TABLE booking_cancellations (
  token TEXT PRIMARY KEY,
  uid TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  slot_start TEXT NOT NULL,
  slot_end TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  meeting_url TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX booking_cancellations_by_email ON booking_cancellations (email);
CREATE INDEX booking_cancellations_by_end ON booking_cancellations (slot_end);
