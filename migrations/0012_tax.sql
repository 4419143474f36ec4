-- Tax pack (issue 14): claim-line overrides per transaction, and the personal line mapping.
CREATE TABLE IF NOT EXISTS tax_overrides (
  tx_forwarded_to TEXT NOT NULL,
  tx_date_file_name TEXT NOT NULL,
  mode TEXT NOT NULL,
  line_key TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (tx_forwarded_to, tx_date_file_name)
);
CREATE INDEX IF NOT EXISTS idx_tax_overrides_month ON tax_overrides (tx_date_file_name);

CREATE TABLE IF NOT EXISTS tax_mapping (
  id TEXT PRIMARY KEY,
  data TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (12, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
