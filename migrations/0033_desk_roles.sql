-- The desk's roles (worker/roles.ts): staff were all "agency", allowed everything. The
-- earliest becomes the Owner and the rest Admins, which keeps what each could do (an Admin may
-- do everything but hand ownership over). The role lives where it did, app_metadata.role.
UPDATE auth_users
SET app_metadata = json_set(
  app_metadata,
  '$.role',
  CASE
    WHEN id = (
      SELECT id FROM auth_users
      WHERE json_extract(app_metadata, '$.role') = 'agency'
      ORDER BY created_at, id
      LIMIT 1
    ) THEN 'owner'
    ELSE 'admin'
  END
)
WHERE json_extract(app_metadata, '$.role') = 'agency';

-- One Owner at most: a second is refused by the database itself (ownership is handed over,
-- the Owner demoted before the Admin is promoted, in one batch; never shared).
CREATE UNIQUE INDEX auth_users_one_owner ON auth_users (json_extract(app_metadata, '$.role'))
WHERE json_extract(app_metadata, '$.role') = 'owner';
