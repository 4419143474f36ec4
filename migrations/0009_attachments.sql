-- 0009: attachments (receipts and documents); files in R2 by month under a hash key. Idempotent.
CREATE TABLE IF NOT EXISTS attachments (
  id TEXT PRIMARY KEY,   -- att_ + 16 hex of SHA-256(file hash, original filename)
  original_filename TEXT NOT NULL,
  content_type TEXT NOT NULL,     -- ours, from the checked type
  size_bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'receipt',
  r2_key TEXT NOT NULL,
  tx_forwarded_to TEXT,           -- linked transaction key; null while unfiled
  tx_date_file_name TEXT,
  parse_status TEXT NOT NULL DEFAULT 'unparsed',  -- unparsed | parsed | failed
  parse_error TEXT,
  parse_json TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_attachments_tx ON attachments (tx_forwarded_to, tx_date_file_name);
CREATE INDEX IF NOT EXISTS idx_attachments_created ON attachments (created_at);
CREATE INDEX IF NOT EXISTS idx_attachments_r2_key ON attachments (r2_key);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (9, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
