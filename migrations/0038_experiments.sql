-- Experiments (docs/experiments.md, issue 60): A/B tests of the site's own texts, assigned at the
-- edge. Variant A is the text of locales/ (or site_texts); B is written per language here.

CREATE TABLE experiments (
  id INTEGER PRIMARY KEY,
  -- the text under test (worker/experiments/targets.ts TARGETS)
  target TEXT NOT NULL,
  -- hashed with the visitor's id to choose the variant (worker/experiments/assign.ts)
  seed TEXT NOT NULL,
  -- the percentage of counted visitors shown B
  split_b INTEGER NOT NULL DEFAULT 50 CHECK (split_b BETWEEN 1 AND 99),
  -- the conversion that judges it (worker/experiments/targets.ts GOALS)
  goal TEXT NOT NULL,
  -- JSON object: language -> the text of B; a language without one keeps A, uncounted
  texts TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL DEFAULT 'draft'
    CHECK (status IN ('draft', 'running', 'paused', 'stopped', 'archived')),
  winner TEXT CHECK (winner IN ('A', 'B')),
  -- the figures as they stood when the winner was picked (JSON)
  results TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  started_at TEXT,
  ended_at TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- one experiment per text at a time: a new one once the last is archived
CREATE UNIQUE INDEX experiments_one_per_target ON experiments (target) WHERE status != 'archived';

-- The text a winning B made the page's own, per language, in place of the locale file's.
CREATE TABLE site_texts (
  key TEXT NOT NULL,
  lang TEXT NOT NULL,
  text TEXT NOT NULL,
  experiment_id INTEGER REFERENCES experiments (id),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (key, lang)
);
