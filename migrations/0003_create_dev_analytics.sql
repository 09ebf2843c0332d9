-- Development only: a copy of the Analytics Engine data points, so `npm run stats` has figures on
-- a fresh clone (the local Analytics Engine binding cannot be queried). Production never writes it.
CREATE TABLE dev_analytics (
  id INTEGER PRIMARY KEY,
  index1 TEXT NOT NULL,
  blobs TEXT NOT NULL,
  doubles TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
