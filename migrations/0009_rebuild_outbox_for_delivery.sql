-- Mail delivery (README: "Mail"): every e-mail is a row here, written in the same batch as the
-- lead it confirms, then delivered through the MAIL_QUEUE and recorded. The old outbox kept
-- only address, subject and text and was never delivered: its rows move over as 'failed', with
-- their text, so nothing is lost and the agency can see and resend them.
CREATE TABLE mail_outbox (
  id INTEGER PRIMARY KEY,
  -- the template (worker/mail/templates/) and what it needs, as JSON
  kind TEXT NOT NULL,
  data TEXT NOT NULL DEFAULT '{}',
  category TEXT NOT NULL CHECK (category IN ('transactional', 'marketing', 'agency')),
  language TEXT NOT NULL,
  to_address TEXT NOT NULL,
  -- origin of the site the links point to (the request's, when SITE_URL is not set)
  site_url TEXT NOT NULL,
  subject TEXT NOT NULL,
  -- the text as written, for rows from before delivery existed; new rows render at send time
  body_text TEXT,
  status TEXT NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'suppressed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  provider TEXT,
  provider_message_id TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  sent_at TEXT
);
CREATE INDEX mail_outbox_by_status ON mail_outbox (status, updated_at);
CREATE INDEX mail_outbox_by_address ON mail_outbox (to_address);

INSERT INTO mail_outbox
  (kind, category, language, to_address, site_url, subject, body_text, status, last_error, created_at, updated_at)
SELECT 'legacy', 'transactional', 'en', to_address, '', subject, body_text, 'failed',
  'written before mail delivery existed; never sent', created_at, created_at
FROM outbox;

DROP TABLE outbox;

-- Addresses no marketing mail may reach: hard bounces and complaints (the provider's webhook),
-- unsubscribes and erasure requests. Only a SHA-256 of the lower-cased address is kept.
CREATE TABLE mail_suppressions (
  email_hash TEXT PRIMARY KEY,
  reason TEXT NOT NULL CHECK (reason IN ('bounce', 'complaint', 'unsubscribe', 'erasure')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
