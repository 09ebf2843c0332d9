-- An address is the account's only once it is proven (GoTrue's email change, issue 55). A new
-- address waits in `email_change` until the link (or code) sent to it is used; with the secure
-- setting (AUTH_SECURE_EMAIL_CHANGE, on by default) the link sent to the current address must
-- be used too. `email_change_confirm_status` counts the links used so far (0 or 1), as GoTrue's.
-- Nothing that trusts an address (sign-in, data export, staff, mail ceilings) reads these
-- columns: they read `email`, which changes only when every link has been used.
ALTER TABLE auth_users ADD COLUMN email_change TEXT;
ALTER TABLE auth_users ADD COLUMN email_change_sent_at TEXT;
ALTER TABLE auth_users ADD COLUMN email_change_confirm_status INTEGER NOT NULL DEFAULT 0;

-- The address a one-time token was sent to (GoTrue's one_time_tokens.relates_to): an
-- `email_change` token to the current address and one to the new address are told apart by it.
ALTER TABLE auth_one_time_tokens ADD COLUMN relates_to TEXT;
