-- 0003: ingestion. Idempotent: every statement can run twice without effect.

-- Embedding cache for the fuzzy override tier (tier 3): one vector per (model, text).
CREATE TABLE IF NOT EXISTS embeddings (
  model TEXT NOT NULL,
  text TEXT NOT NULL,
  vector TEXT NOT NULL,          -- JSON array of numbers
  created_at TEXT NOT NULL,
  PRIMARY KEY (model, text)
);

-- The attention queue: transactions a person should look at (AI-rescued rows) until touched.
-- A side table rather than a column so this migration stays re-runnable (SQLite has no
-- ADD COLUMN IF NOT EXISTS). Touching the transaction deletes its row here.
CREATE TABLE IF NOT EXISTS attention_queue (
  ForwardedTo TEXT NOT NULL,
  DateFileName TEXT NOT NULL,
  reason TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (ForwardedTo, DateFileName)
);
CREATE INDEX IF NOT EXISTS idx_attention_queue_month ON attention_queue (DateFileName);

-- Month-to-date context reads (category spend, merchant visits) for one user.
CREATE INDEX IF NOT EXISTS idx_transactions_user_company ON transactions (UserId, Company COLLATE NOCASE);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (3, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
