-- The agency's desk (README: "Desk"): staff, their audit log, and their marks on leads.

-- GoTrue's app_metadata: set by the service's admin only (never by the user), e.g.
-- {"role": "agency"} for staff (`npm run staff`). Tokens carry it.
ALTER TABLE auth_users ADD COLUMN app_metadata TEXT NOT NULL DEFAULT '{}';

-- Every staff action: who, what, on what, when.
CREATE TABLE desk_audit (
  id INTEGER PRIMARY KEY,
  actor_id TEXT NOT NULL,
  actor_email TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT,
  detail TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX desk_audit_by_time ON desk_audit (created_at);

-- A lead marked handled, and the agency's private note on it.
CREATE TABLE lead_marks (
  kind TEXT NOT NULL CHECK (kind IN ('subscriber', 'guide', 'contact')),
  lead_id INTEGER NOT NULL,
  handled_at TEXT,
  handled_by TEXT,
  note TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (kind, lead_id)
);

-- The inbox lists leads newest first, a page at a time from a (created_at, id) cursor.
CREATE INDEX subscribers_by_time ON subscribers (created_at, id);
CREATE INDEX guide_requests_by_time ON guide_requests (created_at, id);
CREATE INDEX contact_messages_by_time ON contact_messages (created_at, id);
