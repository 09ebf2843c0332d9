-- When each cron trigger of wrangler.toml last ran, and whether it finished: the deploy's smoke
-- test reads it (worker/deploy-status.ts), since a Worker cannot see its own triggers.
CREATE TABLE cron_runs (
  cron TEXT PRIMARY KEY,
  ran_at TEXT NOT NULL,
  ok INTEGER NOT NULL
);
