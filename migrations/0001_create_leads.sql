-- Leads the agency reads in the D1 console (README: "Leads model").

-- One row per person who agreed to hear from us; the e-mail is stored trimmed and lower-cased.
CREATE TABLE subscribers (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  name TEXT,
  -- what the client sent (always 'website') and the form it came through
  source TEXT NOT NULL DEFAULT 'website',
  signup_form TEXT NOT NULL CHECK (signup_form IN ('welcome_popup', 'guide', 'newsletter')),
  language TEXT NOT NULL,
  consent_version TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Every free-guide download, including repeats by the same person.
CREATE TABLE guide_requests (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL,
  name TEXT NOT NULL,
  guide TEXT NOT NULL,
  language TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX guide_requests_by_email ON guide_requests (email);

-- Messages from the contact page.
CREATE TABLE contact_messages (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  company TEXT,
  service TEXT NOT NULL,
  budget TEXT,
  message TEXT NOT NULL,
  language TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
