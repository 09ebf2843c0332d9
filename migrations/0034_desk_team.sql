-- The desk's team (docs/desk.md "Team"): who is staff, and the invitations that make them so.
-- The role itself lives in the account's app_metadata.role, with the auth service (built-in or
-- hosted GoTrue): this table is the index of whose accounts to read, and what the service does
-- not keep (since when, last seen in the desk, the session last seen).
CREATE TABLE desk_members (
  user_id TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  joined_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_seen_at TEXT,
  -- the auth session that last opened the desk: another one is a new desk sign-in (audited)
  last_session_id TEXT
);

-- Today's staff, from the built-in service's accounts (a hosted one's join at their next visit).
INSERT INTO desk_members (user_id, email, joined_at)
SELECT id, email, created_at FROM auth_users
WHERE json_extract(app_metadata, '$.role') IN ('owner', 'admin', 'editor', 'sales', 'writer', 'agency');

-- An invitation by e-mail: only the SHA-256 of its link's token is kept. Open while neither
-- accepted nor revoked, until expires_at (7 days after it was last sent).
CREATE TABLE desk_invitations (
  id INTEGER PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('admin', 'editor', 'sales', 'writer')),
  language TEXT NOT NULL,
  invited_by_id TEXT NOT NULL,
  invited_by_email TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  sent_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at TEXT NOT NULL,
  accepted_at TEXT,
  accepted_by TEXT,
  revoked_at TEXT,
  -- the daily cron wrote its expiry to the history
  expiry_logged INTEGER NOT NULL DEFAULT 0
);
-- One open invitation per address.
CREATE UNIQUE INDEX desk_invitations_open ON desk_invitations (email)
WHERE accepted_at IS NULL AND revoked_at IS NULL;
CREATE INDEX desk_invitations_to_expire ON desk_invitations (expires_at)
WHERE accepted_at IS NULL AND revoked_at IS NULL AND expiry_logged = 0;
