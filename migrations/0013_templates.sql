-- Learned alert templates (issue 18): an unknown bank's alert read from one hand-resolved email.
CREATE TABLE IF NOT EXISTS alert_templates (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  institution TEXT NOT NULL,
  sender_domain TEXT NOT NULL,
  subject_words TEXT NOT NULL,
  pattern TEXT NOT NULL,
  transaction_type TEXT NOT NULL,
  example TEXT NOT NULL,
  source_failure_id TEXT,
  match_count INTEGER NOT NULL DEFAULT 0,
  last_matched_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_alert_templates_domain ON alert_templates (sender_domain);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (13, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
