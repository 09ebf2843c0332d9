-- PKCE flows of the built-in auth service (worker/auth-service/pkce.ts). A sign-in link or
-- recovery link asked for with a code_challenge carries an auth code instead of its token;
-- POST /token?grant_type=pkce exchanges the code, with the verifier of that challenge, for a
-- session. Only a SHA-256 of the code is kept. A flow lives as long as the one-time token of its
-- e-mail: it works once, within the hour, and not after that e-mail's six-digit code was used.
CREATE TABLE auth_flow_state (
  id TEXT PRIMARY KEY,
  auth_code_hash TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES auth_users (id) ON DELETE CASCADE,
  -- the one-time token (link and code) of the same e-mail: spending either spends the flow
  token_hash TEXT NOT NULL REFERENCES auth_one_time_tokens (token_hash) ON DELETE CASCADE,
  code_challenge TEXT NOT NULL,
  code_challenge_method TEXT NOT NULL CHECK (code_challenge_method IN ('s256', 'plain')),
  -- what the session is for: 'magiclink' (a sign-in) or 'recovery'
  authentication_method TEXT NOT NULL CHECK (authentication_method IN ('magiclink', 'recovery')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX auth_flow_state_by_token ON auth_flow_state (token_hash);
