-- Consent and data rights (README: "Consent and data rights").

-- Double opt-in: a sign-up is 'pending' until its e-mailed link confirms it; unsubscribing ends
-- it. Only 'confirmed' subscribers receive the newsletter.
ALTER TABLE subscribers ADD COLUMN status TEXT NOT NULL DEFAULT 'pending'
  CHECK (status IN ('pending', 'confirmed', 'unsubscribed'));
-- when the visitor agreed to the consent text of consent_version (the newest sign-up's)
ALTER TABLE subscribers ADD COLUMN consented_at TEXT;
-- random key of the unused confirmation link (links carry it sealed); NULL once spent
ALTER TABLE subscribers ADD COLUMN confirm_nonce TEXT;
ALTER TABLE subscribers ADD COLUMN confirmed_at TEXT;
-- SHA-256 of the IP address the confirmation came from: proof of consent, not a way to find anyone
ALTER TABLE subscribers ADD COLUMN confirm_ip_hash TEXT;
ALTER TABLE subscribers ADD COLUMN unsubscribed_at TEXT;

-- Sign-ups from before double opt-in agreed to the consent text single opt-in (then the law's
-- minimum and the site's practice): they stay on the list, with no confirmation recorded.
UPDATE subscribers SET status = 'confirmed', consented_at = created_at;

CREATE UNIQUE INDEX subscribers_by_nonce ON subscribers (confirm_nonce)
  WHERE confirm_nonce IS NOT NULL;
CREATE INDEX subscribers_by_status ON subscribers (status, created_at);

-- A person's rows, found by address for an export or an erasure.
CREATE INDEX contact_messages_by_email ON contact_messages (email);
CREATE INDEX bookings_by_email ON bookings (email);

-- Secrets the site generates for itself when none is configured (LINK_SECRET outside production).
CREATE TABLE site_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Newsletter issues (`npm run newsletter`): the cron sends a ready issue to every confirmed
-- subscriber, in their language, once.
CREATE TABLE newsletters (
  id INTEGER PRIMARY KEY,
  -- {"en": {"subject": "…", "paragraphs": ["…"]}, "ar": …}: English is required and stands in
  -- for a language the issue does not have
  content TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'sent')),
  -- origin of the site its links point to; empty = SITE_URL
  site_url TEXT NOT NULL DEFAULT '',
  -- the random key of the cron run that sent it: only that run writes its e-mails
  claim TEXT,
  recipients INTEGER,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  sent_at TEXT
);
