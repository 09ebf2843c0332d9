-- Free consultations booked through the built-in booking page (/book).
CREATE TABLE bookings (
  id INTEGER PRIMARY KEY,
  -- start of the 30-minute slot, UTC ISO 8601; unique, so a slot can never be booked twice
  slot_start TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  notes TEXT,
  -- the visitor's time zone, for the confirmation they read
  time_zone TEXT NOT NULL,
  language TEXT NOT NULL,
  -- unguessable key of the visitor's .ics invitation link
  token TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- E-mails the site sends. With no mail provider configured they wait here for `npm run outbox`.
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY,
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  body_text TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
