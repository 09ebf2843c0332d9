-- Bots (docs/bots.md): what the challenge and the mail ceilings need.
--
-- A post sent without JavaScript cannot carry a Turnstile token: it is stored all the same,
-- marked here, and no e-mail goes to its address (the desk shows the mark).
ALTER TABLE subscribers ADD COLUMN unchecked INTEGER NOT NULL DEFAULT 0;
ALTER TABLE guide_requests ADD COLUMN unchecked INTEGER NOT NULL DEFAULT 0;
ALTER TABLE bookings ADD COLUMN unchecked INTEGER NOT NULL DEFAULT 0;

-- The outbox again, for one more status: 'held', an e-mail that waits for the agency (too many
-- e-mails to unconfirmed addresses in an hour). `hold_reason` says why a row is held or was
-- suppressed by a ceiling; `unconfirmed` marks e-mails a form sent to an address that had
-- never confirmed (what the ceilings count). SQLite cannot change a CHECK in place.
CREATE TABLE mail_outbox_new (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  data TEXT NOT NULL DEFAULT '{}',
  category TEXT NOT NULL CHECK (category IN ('transactional', 'marketing', 'agency')),
  language TEXT NOT NULL,
  to_address TEXT NOT NULL,
  site_url TEXT NOT NULL,
  subject TEXT NOT NULL,
  body_text TEXT,
  status TEXT NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'suppressed', 'held')),
  attempts INTEGER NOT NULL DEFAULT 0,
  provider TEXT,
  provider_message_id TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  sent_at TEXT,
  newsletter_id INTEGER,
  batch_key TEXT,
  not_before TEXT,
  feedback TEXT,
  hold_reason TEXT CHECK (hold_reason IN ('surge', 'address_ceiling')),
  unconfirmed INTEGER NOT NULL DEFAULT 0
);
INSERT INTO mail_outbox_new
  (id, kind, data, category, language, to_address, site_url, subject, body_text, status,
   attempts, provider, provider_message_id, last_error, created_at, updated_at, sent_at,
   newsletter_id, batch_key, not_before, feedback)
SELECT id, kind, data, category, language, to_address, site_url, subject, body_text, status,
  attempts, provider, provider_message_id, last_error, created_at, updated_at, sent_at,
  newsletter_id, batch_key, not_before, feedback
FROM mail_outbox;
DROP TABLE mail_outbox;
ALTER TABLE mail_outbox_new RENAME TO mail_outbox;
CREATE INDEX mail_outbox_by_status ON mail_outbox (status, updated_at);
CREATE INDEX mail_outbox_by_address ON mail_outbox (to_address COLLATE NOCASE, created_at);
CREATE UNIQUE INDEX mail_outbox_one_per_issue ON mail_outbox (newsletter_id, to_address)
  WHERE newsletter_id IS NOT NULL;
CREATE INDEX mail_outbox_by_issue ON mail_outbox (newsletter_id, status, not_before)
  WHERE newsletter_id IS NOT NULL;
CREATE INDEX mail_outbox_by_batch ON mail_outbox (batch_key) WHERE batch_key IS NOT NULL;
-- the hour's e-mails to unconfirmed addresses, counted at every form's e-mail
CREATE INDEX mail_outbox_unconfirmed ON mail_outbox (created_at) WHERE unconfirmed = 1;
