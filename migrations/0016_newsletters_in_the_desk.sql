-- Newsletters written in the desk and sent at scale (README: "Newsletters"). An issue has a
-- subject and a Markdown body per language (English required: it stands in for a language the
-- issue lacks). Sending writes its e-mails into the outbox in chunks (a cursor over the
-- subscribers' ids) and hands them to the provider in batches at the provider's rate.

CREATE TABLE newsletter_issues (
  id INTEGER PRIMARY KEY,
  -- draft → scheduled (send_at) → sending → sent; a cancel takes a scheduled issue back to draft
  status TEXT NOT NULL DEFAULT 'draft'
    CHECK (status IN ('draft', 'scheduled', 'sending', 'sent')),
  send_at TEXT,
  -- origin of the site its links point to; empty = SITE_URL
  site_url TEXT NOT NULL DEFAULT '',
  -- the confirmed subscribers when sending started, and how far writing their e-mails has come
  audience INTEGER,
  cursor INTEGER NOT NULL DEFAULT 0,
  written INTEGER NOT NULL DEFAULT 0,
  -- set once the last chunk is written
  written_at TEXT,
  -- the last time a sending step ran: the cron restarts a send whose steps stopped
  pumped_at TEXT,
  started_at TEXT,
  finished_at TEXT,
  version INTEGER NOT NULL DEFAULT 1,
  created_by TEXT NOT NULL DEFAULT '',
  updated_by TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX newsletter_issues_by_status ON newsletter_issues (status, send_at);

CREATE TABLE newsletter_texts (
  issue_id INTEGER NOT NULL REFERENCES newsletter_issues (id) ON DELETE CASCADE,
  lang TEXT NOT NULL,
  subject TEXT NOT NULL,
  -- Markdown, rendered by the articles' renderer and sanitiser (worker/content/markdown.ts)
  body TEXT NOT NULL,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (issue_id, lang)
);

-- The issues of `npm run newsletter` so far move over: their paragraphs become Markdown
-- paragraphs; a ready one is scheduled for now (the next cron sends it), a sent one stays sent.
INSERT INTO newsletter_issues (id, status, send_at, site_url, audience, written, written_at,
                               started_at, finished_at, created_by, updated_by, created_at,
                               updated_at)
SELECT id, CASE status WHEN 'ready' THEN 'scheduled' ELSE 'sent' END, created_at, site_url,
       recipients, coalesce(recipients, 0), sent_at, sent_at, sent_at, 'npm run newsletter',
       'npm run newsletter', created_at, coalesce(sent_at, created_at)
FROM newsletters;

INSERT INTO newsletter_texts (issue_id, lang, subject, body)
SELECT n.id, t.key, coalesce(json_extract(t.value, '$.subject'), ''),
       coalesce((SELECT group_concat(p.value, char(10) || char(10))
                 FROM json_each(t.value, '$.paragraphs') p), '')
FROM newsletters n, json_each(n.content) t
WHERE json_valid(n.content);

DROP TABLE newsletters;

-- The outbox knows the issue an e-mail belongs to: one per subscriber and issue, whatever
-- happens (a chunk written twice inserts nothing the second time).
ALTER TABLE mail_outbox ADD COLUMN newsletter_id INTEGER;
-- the provider call a bulk e-mail went out in: fixed at its first attempt, so a retry repeats
-- the same call under the same idempotency key, and the provider sends nothing twice
ALTER TABLE mail_outbox ADD COLUMN batch_key TEXT;
-- not to be tried before this time (a retry's back-off, or the provider's Retry-After)
ALTER TABLE mail_outbox ADD COLUMN not_before TEXT;
-- what the provider reported after delivery: 'bounce' or 'complaint'
ALTER TABLE mail_outbox ADD COLUMN feedback TEXT;
CREATE UNIQUE INDEX mail_outbox_one_per_issue ON mail_outbox (newsletter_id, to_address)
  WHERE newsletter_id IS NOT NULL;
CREATE INDEX mail_outbox_by_issue ON mail_outbox (newsletter_id, status, not_before)
  WHERE newsletter_id IS NOT NULL;
CREATE INDEX mail_outbox_by_batch ON mail_outbox (batch_key) WHERE batch_key IS NOT NULL;

-- The chunks walk the confirmed subscribers by id.
CREATE INDEX subscribers_by_status_id ON subscribers (status, id);

-- The provider's pace, shared by every invocation that sends: the earliest time (ms since the
-- epoch) the next call may go. A call reserves its slot by moving it on (worker/mail/pace.ts).
CREATE TABLE mail_pace (
  provider TEXT PRIMARY KEY,
  next_at INTEGER NOT NULL
);
