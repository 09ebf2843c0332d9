-- A lead's id is never given again (README: "Leads model", docs/leads.md). Without AUTOINCREMENT,
-- SQLite gives a new row the highest id + 1: erasing the newest lead (or cancelling the newest
-- booking) handed its id to the next one, which inherited its mark and note (lead_marks), its
-- lines in the desk's log (desk_audit's `kind/id`, `booking/id`), and any desk page left open on
-- it. SQLite cannot add AUTOINCREMENT in place: each table is made again, its rows, ids and
-- indexes the same. The desk's search indexes (0012, external content over these rows by id)
-- stay valid, the ids unchanged; their triggers go with the old tables and are made again here.
-- No foreign key points at these tables. And a lead's mark and note now go with the lead, however
-- it is deleted (an erasure, the daily clean-up of unconfirmed sign-ups).

-- subscribers (0001, 0010, 0029)
CREATE TABLE subscribers_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL UNIQUE,
  name TEXT,
  source TEXT NOT NULL DEFAULT 'website',
  signup_form TEXT NOT NULL CHECK (signup_form IN ('welcome_popup', 'guide', 'newsletter')),
  language TEXT NOT NULL,
  consent_version TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
  consented_at TEXT,
  confirm_nonce TEXT,
  confirmed_at TEXT,
  confirm_ip_hash TEXT,
  unsubscribed_at TEXT,
  unchecked INTEGER NOT NULL DEFAULT 0
);
INSERT INTO subscribers_new
  (id, email, name, source, signup_form, language, consent_version, created_at, status,
   consented_at, confirm_nonce, confirmed_at, confirm_ip_hash, unsubscribed_at, unchecked)
SELECT id, email, name, source, signup_form, language, consent_version, created_at, status,
  consented_at, confirm_nonce, confirmed_at, confirm_ip_hash, unsubscribed_at, unchecked
FROM subscribers;
-- ids already erased that a mark or the log still names: never given again either (the row
-- inserted sets the table's sequence, and goes)
INSERT INTO subscribers_new (id, email, signup_form, language, consent_version)
SELECT n, '', 'newsletter', '', '' FROM (
  SELECT max(n) AS n FROM (
    SELECT max(lead_id) AS n FROM lead_marks WHERE kind = 'subscriber'
    UNION ALL
    SELECT max(CAST(substr(target, 12) AS INTEGER)) FROM desk_audit
    WHERE target LIKE 'subscriber/%'))
WHERE n > (SELECT coalesce(max(id), 0) FROM subscribers_new);
DELETE FROM subscribers_new WHERE email = '';
DROP TABLE subscribers;
ALTER TABLE subscribers_new RENAME TO subscribers;
CREATE UNIQUE INDEX subscribers_by_nonce ON subscribers (confirm_nonce)
  WHERE confirm_nonce IS NOT NULL;
CREATE INDEX subscribers_by_status ON subscribers (status, created_at);
CREATE INDEX subscribers_by_time ON subscribers (created_at, id);
CREATE INDEX subscribers_by_status_id ON subscribers (status, id);

-- guide_requests (0001, 0029)
CREATE TABLE guide_requests_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL,
  name TEXT NOT NULL,
  guide TEXT NOT NULL,
  language TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  unchecked INTEGER NOT NULL DEFAULT 0
);
INSERT INTO guide_requests_new (id, email, name, guide, language, created_at, unchecked)
SELECT id, email, name, guide, language, created_at, unchecked FROM guide_requests;
INSERT INTO guide_requests_new (id, email, name, guide, language)
SELECT n, '', '', '', '' FROM (
  SELECT max(n) AS n FROM (
    SELECT max(lead_id) AS n FROM lead_marks WHERE kind = 'guide'
    UNION ALL
    SELECT max(CAST(substr(target, 7) AS INTEGER)) FROM desk_audit WHERE target LIKE 'guide/%'))
WHERE n > (SELECT coalesce(max(id), 0) FROM guide_requests_new);
DELETE FROM guide_requests_new WHERE email = '';
DROP TABLE guide_requests;
ALTER TABLE guide_requests_new RENAME TO guide_requests;
CREATE INDEX guide_requests_by_email ON guide_requests (email);
CREATE INDEX guide_requests_by_time ON guide_requests (created_at, id);

-- contact_messages (0001)
CREATE TABLE contact_messages_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  company TEXT,
  service TEXT NOT NULL,
  budget TEXT,
  message TEXT NOT NULL,
  language TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO contact_messages_new
  (id, name, email, company, service, budget, message, language, created_at)
SELECT id, name, email, company, service, budget, message, language, created_at
FROM contact_messages;
INSERT INTO contact_messages_new (id, name, email, service, message, language)
SELECT n, '', '', '', '', '' FROM (
  SELECT max(n) AS n FROM (
    SELECT max(lead_id) AS n FROM lead_marks WHERE kind = 'contact'
    UNION ALL
    SELECT max(CAST(substr(target, 9) AS INTEGER)) FROM desk_audit
    WHERE target LIKE 'contact/%'))
WHERE n > (SELECT coalesce(max(id), 0) FROM contact_messages_new);
DELETE FROM contact_messages_new WHERE email = '';
DROP TABLE contact_messages;
ALTER TABLE contact_messages_new RENAME TO contact_messages;
CREATE INDEX contact_messages_by_email ON contact_messages (email);
CREATE INDEX contact_messages_by_time ON contact_messages (created_at, id);

-- bookings (0002, 0017, 0029)
CREATE TABLE bookings_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- start of the slot, UTC ISO 8601; unique, so a slot can never be booked twice
  slot_start TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  notes TEXT,
  time_zone TEXT NOT NULL,
  language TEXT NOT NULL,
  -- unguessable key of the visitor's .ics invitation link
  token TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  slot_end TEXT,
  uid TEXT,
  sequence INTEGER NOT NULL DEFAULT 0,
  meeting_url TEXT,
  reminded_24h_at TEXT,
  reminded_1h_at TEXT,
  calendar_state TEXT,
  calendar_error TEXT,
  unchecked INTEGER NOT NULL DEFAULT 0
);
INSERT INTO bookings_new
  (id, slot_start, name, email, notes, time_zone, language, token, created_at, slot_end, uid,
   sequence, meeting_url, reminded_24h_at, reminded_1h_at, calendar_state, calendar_error,
   unchecked)
SELECT id, slot_start, name, email, notes, time_zone, language, token, created_at, slot_end, uid,
  sequence, meeting_url, reminded_24h_at, reminded_1h_at, calendar_state, calendar_error,
  unchecked
FROM bookings;
INSERT INTO bookings_new (id, slot_start, name, email, time_zone, language, token)
SELECT n, '', '', '', '', '', '' FROM (
  SELECT max(CAST(substr(target, 9) AS INTEGER)) AS n FROM desk_audit
  -- a cancel or move that happened (one that found nothing names any number typed in a URL)
  WHERE target LIKE 'booking/%' AND json_extract(detail, '$.outcome') IS NULL)
WHERE n > (SELECT coalesce(max(id), 0) FROM bookings_new);
DELETE FROM bookings_new WHERE token = '';
DROP TABLE bookings;
ALTER TABLE bookings_new RENAME TO bookings;
CREATE INDEX bookings_by_email ON bookings (email);
CREATE INDEX bookings_by_end ON bookings (slot_end);

-- The desk's search indexes kept in step (as 0012 made them).
CREATE TRIGGER subscribers_search_insert AFTER INSERT ON subscribers BEGIN
  INSERT INTO subscribers_search (rowid, email, name) VALUES (new.id, new.email, new.name);
END;
CREATE TRIGGER subscribers_search_delete AFTER DELETE ON subscribers BEGIN
  INSERT INTO subscribers_search (subscribers_search, rowid, email, name)
  VALUES ('delete', old.id, old.email, old.name);
END;
CREATE TRIGGER subscribers_search_update AFTER UPDATE OF email, name ON subscribers BEGIN
  INSERT INTO subscribers_search (subscribers_search, rowid, email, name)
  VALUES ('delete', old.id, old.email, old.name);
  INSERT INTO subscribers_search (rowid, email, name) VALUES (new.id, new.email, new.name);
END;
CREATE TRIGGER guide_requests_search_insert AFTER INSERT ON guide_requests BEGIN
  INSERT INTO guide_requests_search (rowid, email, name) VALUES (new.id, new.email, new.name);
END;
CREATE TRIGGER guide_requests_search_delete AFTER DELETE ON guide_requests BEGIN
  INSERT INTO guide_requests_search (guide_requests_search, rowid, email, name)
  VALUES ('delete', old.id, old.email, old.name);
END;
CREATE TRIGGER guide_requests_search_update AFTER UPDATE OF email, name ON guide_requests BEGIN
  INSERT INTO guide_requests_search (guide_requests_search, rowid, email, name)
  VALUES ('delete', old.id, old.email, old.name);
  INSERT INTO guide_requests_search (rowid, email, name) VALUES (new.id, new.email, new.name);
END;
CREATE TRIGGER contact_messages_search_insert AFTER INSERT ON contact_messages BEGIN
  INSERT INTO contact_messages_search (rowid, email, name) VALUES (new.id, new.email, new.name);
END;
CREATE TRIGGER contact_messages_search_delete AFTER DELETE ON contact_messages BEGIN
  INSERT INTO contact_messages_search (contact_messages_search, rowid, email, name)
  VALUES ('delete', old.id, old.email, old.name);
END;
CREATE TRIGGER contact_messages_search_update AFTER UPDATE OF email, name ON contact_messages
BEGIN
  INSERT INTO contact_messages_search (contact_messages_search, rowid, email, name)
  VALUES ('delete', old.id, old.email, old.name);
  INSERT INTO contact_messages_search (rowid, email, name) VALUES (new.id, new.email, new.name);
END;

-- A lead's mark and note go with the lead. The marks of leads already gone go now.
CREATE TRIGGER subscribers_marks_delete AFTER DELETE ON subscribers BEGIN
  DELETE FROM lead_marks WHERE kind = 'subscriber' AND lead_id = old.id;
END;
CREATE TRIGGER guide_requests_marks_delete AFTER DELETE ON guide_requests BEGIN
  DELETE FROM lead_marks WHERE kind = 'guide' AND lead_id = old.id;
END;
CREATE TRIGGER contact_messages_marks_delete AFTER DELETE ON contact_messages BEGIN
  DELETE FROM lead_marks WHERE kind = 'contact' AND lead_id = old.id;
END;
DELETE FROM lead_marks
WHERE (kind = 'subscriber' AND lead_id NOT IN (SELECT id FROM subscribers))
   OR (kind = 'guide' AND lead_id NOT IN (SELECT id FROM guide_requests))
   OR (kind = 'contact' AND lead_id NOT IN (SELECT id FROM contact_messages));
