-- Saved insights briefings with their figure-check sidecar (issue 15).
CREATE TABLE IF NOT EXISTS insight_briefings (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  month TEXT NOT NULL,
  generated_at TEXT NOT NULL,
  content TEXT NOT NULL,
  validation TEXT,
  provider TEXT,
  model TEXT
);
CREATE INDEX IF NOT EXISTS idx_insight_briefings_month ON insight_briefings (user_id, month, generated_at);

-- The vendor account connection (OAuth device flow); holds tokens, never exported.
CREATE TABLE IF NOT EXISTS vendor_connections (
  user_id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  device_code TEXT,
  user_code TEXT,
  verification_url TEXT,
  interval_s INTEGER NOT NULL DEFAULT 5,
  expires_at TEXT,
  next_poll_at TEXT,
  access_token TEXT,
  refresh_token TEXT,
  token_expires_at TEXT,
  email TEXT,
  error TEXT,
  updated_at TEXT NOT NULL
);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (11, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
