-- Statement PDF layouts a person taught by marking columns once (issue 22 point 5), found again by
-- the fingerprint of the bank's page (header words and column positions); and each review row's
-- synthetic key, stored at upload so the import never recomputes it (issue 24 point 6).
CREATE TABLE IF NOT EXISTS statement_layouts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  institution TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  header TEXT NOT NULL,
  marks TEXT NOT NULL,
  source_statement_id TEXT,
  match_count INTEGER NOT NULL DEFAULT 0,
  last_matched_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_statement_layouts_fingerprint ON statement_layouts (fingerprint);

CREATE TABLE IF NOT EXISTS statement_row_keys (
  statement_id TEXT NOT NULL,
  tx_index INTEGER NOT NULL,
  date_file_name TEXT NOT NULL,
  PRIMARY KEY (statement_id, tx_index)
);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (18, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
