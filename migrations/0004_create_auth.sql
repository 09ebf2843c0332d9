-- The built-in auth service (/auth/v1, GoTrue-compatible), used when AUTH_URL is not set.
CREATE TABLE auth_users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  -- PBKDF2-SHA256: "pbkdf2_sha256$<iterations>$<salt b64>$<hash b64>"
  password_hash TEXT NOT NULL,
  user_metadata TEXT NOT NULL DEFAULT '{}',
  email_confirmed_at TEXT,
  last_sign_in_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE auth_sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
  aal TEXT NOT NULL DEFAULT 'aal1',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  refreshed_at TEXT,
  revoked_at TEXT
);
CREATE INDEX auth_sessions_by_user ON auth_sessions (user_id);

-- Refresh tokens rotate: each use revokes the token and issues its child. Using a revoked one
-- again means it was stolen or replayed, and ends the whole session.
CREATE TABLE auth_refresh_tokens (
  token TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES auth_sessions (id) ON DELETE CASCADE,
  parent TEXT,
  revoked INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX auth_refresh_tokens_by_session ON auth_refresh_tokens (session_id);

-- Signing keys generated for local development (production takes AUTH_SIGNING_KEY).
CREATE TABLE auth_keys (
  kid TEXT PRIMARY KEY,
  private_jwk TEXT NOT NULL,
  public_jwk TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Failed sign-ins per e-mail and per IP in the current 15-minute window.
CREATE TABLE auth_failures (
  key TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (key, window_start)
);
