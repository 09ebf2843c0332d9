-- Webhooks (docs/webhooks.md, issue 59): the agency's endpoints, the events the site raises, one
-- delivery per event and endpoint (durable: D1 is the truth, the queue only the transport), and
-- every attempt, kept 30 days for the desk's delivery log.

CREATE TABLE webhook_endpoints (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL,
  -- JSON array of event types (worker/webhooks/events.ts EVENT_TYPES)
  events TEXT NOT NULL DEFAULT '[]',
  format TEXT NOT NULL CHECK (format IN ('standard', 'slack')),
  -- 1: the name, address and message travel in payloads; 0: never
  personal INTEGER NOT NULL DEFAULT 0,
  enabled INTEGER NOT NULL DEFAULT 1,
  -- the Standard Webhooks secret, whsec_<base64>; after a rotation the old one still signs
  -- (both signatures sent) until previous_until
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_until TEXT,
  description TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  created_by TEXT NOT NULL,
  -- why it is off: 'manual', 'gone' (answered 410), 'failing' (5 days of failures)
  disabled_at TEXT,
  disabled_reason TEXT,
  -- the first failure of the current run of failures (null once a delivery succeeds)
  failing_since TEXT
);

-- One event the site raised: its id is every delivery's webhook-id (msg_…); data holds the
-- personal fields too, each endpoint's payload leaves them out unless it asks for them.
CREATE TABLE webhook_events (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  data TEXT NOT NULL
);
CREATE INDEX webhook_events_by_time ON webhook_events (created_at);

CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  endpoint_id INTEGER NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  -- pending: an attempt is due at next_at; done: a 2xx; failed: the schedule ran out, or the
  -- endpoint went off
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  done_at TEXT,
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at);

-- Every attempt, for the log: when, the answer's status (null: none), how long, its start.
CREATE TABLE webhook_attempts (
  id INTEGER PRIMARY KEY,
  delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  endpoint_id INTEGER NOT NULL,
  at TEXT NOT NULL,
  status INTEGER,
  duration_ms INTEGER NOT NULL,
  response TEXT,
  error TEXT
);
CREATE INDEX webhook_attempts_by_time ON webhook_attempts (at);
CREATE INDEX webhook_attempts_by_endpoint ON webhook_attempts (endpoint_id, at);
CREATE INDEX webhook_attempts_of_delivery ON webhook_attempts (delivery_id, at);
