-- One-time links e-mailed by the built-in auth service (password recovery). Only a SHA-256 of
-- the token is kept; a link works once, for one hour.
CREATE TABLE auth_one_time_tokens (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
  type TEXT NOT NULL CHECK (type IN ('recovery')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  used_at TEXT
);
