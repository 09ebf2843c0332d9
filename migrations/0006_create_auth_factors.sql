-- Multi-factor authentication of the built-in auth service: TOTP factors and their challenges.
CREATE TABLE auth_factors (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
  friendly_name TEXT,
  factor_type TEXT NOT NULL CHECK (factor_type IN ('totp')),
  status TEXT NOT NULL DEFAULT 'unverified' CHECK (status IN ('unverified', 'verified')),
  -- base32 TOTP secret (RFC 6238)
  secret TEXT NOT NULL,
  -- the last 30-second time step a code was accepted for: a code works once
  last_step INTEGER,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX auth_factors_by_user ON auth_factors (user_id);
CREATE UNIQUE INDEX auth_factors_name ON auth_factors (user_id, friendly_name)
  WHERE friendly_name IS NOT NULL;

-- A challenge is answered once, within five minutes.
CREATE TABLE auth_challenges (
  id TEXT PRIMARY KEY,
  factor_id TEXT NOT NULL REFERENCES auth_factors (id) ON DELETE CASCADE,
  ip_address TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  verified_at TEXT
);

-- Authentication methods of the session, oldest first ("password", "password,totp"), and the
-- factor that raised it to aal2.
ALTER TABLE auth_sessions ADD COLUMN amr TEXT NOT NULL DEFAULT 'password';
ALTER TABLE auth_sessions ADD COLUMN factor_id TEXT;
