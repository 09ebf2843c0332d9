-- The built-in auth service's one-time flows (worker/auth/one-time.ts): magic links with a
-- six-digit code (/otp), and reauthentication codes (/reauthenticate) next to recovery links.
-- SQLite cannot change a CHECK constraint, so the table is rebuilt with the wider list of types
-- and a column for codes. As for the links, only a hash of a code is kept: SHA-256 of
-- "<user id>:<code>", so a code only ever matches its own user.
CREATE TABLE auth_one_time_tokens_new (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
  type TEXT NOT NULL CHECK (
    type IN ('recovery', 'magiclink', 'signup', 'email_change', 'reauthentication')
  ),
  code_hash TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  used_at TEXT
);

INSERT INTO auth_one_time_tokens_new (token_hash, user_id, type, created_at, used_at)
  SELECT token_hash, user_id, type, created_at, used_at FROM auth_one_time_tokens;

DROP TABLE auth_one_time_tokens;

ALTER TABLE auth_one_time_tokens_new RENAME TO auth_one_time_tokens;

CREATE INDEX auth_one_time_tokens_by_code ON auth_one_time_tokens (code_hash);
-- the user's latest token of a type: the e-mail cooldown, and superseding older codes
CREATE INDEX auth_one_time_tokens_by_user ON auth_one_time_tokens (user_id, type, created_at);
