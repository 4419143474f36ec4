-- 0006: saved AI-written day summaries for the journal. Idempotent.
CREATE TABLE IF NOT EXISTS day_summaries (
  user_id TEXT NOT NULL,
  day TEXT NOT NULL,              -- YYYY-MM-DD (the DateFileName day prefix)
  summary TEXT NOT NULL,
  provider TEXT,
  model TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (user_id, day)
);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (6, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
