-- The desk's search (worker/db/desk.ts, listLeads): leads by any part of their name or address,
-- in any case. A LIKE '%…%' reads every row of 100,000 leads; a trigram index finds the few
-- that hold the text. One FTS5 table per kind of lead, over its table (external content: the
-- index alone is stored), kept in step by triggers on every insert, delete and change of name
-- or address. `wrangler d1 export` refuses a database with virtual tables: they hold nothing
-- the leads' tables do not, so drop them (and their triggers) before an export and make them
-- again from this file after (its last statements fill them).

CREATE VIRTUAL TABLE subscribers_search USING fts5(
  email, name, content = 'subscribers', content_rowid = 'id', tokenize = 'trigram'
);
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

CREATE VIRTUAL TABLE guide_requests_search USING fts5(
  email, name, content = 'guide_requests', content_rowid = 'id', tokenize = 'trigram'
);
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

CREATE VIRTUAL TABLE contact_messages_search USING fts5(
  email, name, content = 'contact_messages', content_rowid = 'id', tokenize = 'trigram'
);
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

-- the leads already there
INSERT INTO subscribers_search (subscribers_search) VALUES ('rebuild');
INSERT INTO guide_requests_search (guide_requests_search) VALUES ('rebuild');
INSERT INTO contact_messages_search (contact_messages_search) VALUES ('rebuild');
