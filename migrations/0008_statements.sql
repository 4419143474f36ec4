-- 0008: uploaded statements (file in R2 under a hash key) and their review rows. Money in cents. Idempotent.
CREATE TABLE IF NOT EXISTS statements (
  id TEXT PRIMARY KEY,              -- stmt_ + 16 hex
  filename TEXT NOT NULL,
  file_kind TEXT NOT NULL DEFAULT 'pdf',   -- pdf | csv | ofx | qfx
  file_sha256 TEXT NOT NULL,
  r2_key TEXT NOT NULL,
  institution TEXT NOT NULL,
  account_type TEXT NOT NULL,
  period_start TEXT,
  period_end TEXT,
  parsed_with_ai INTEGER NOT NULL DEFAULT 0,
  balance_ok INTEGER NOT NULL DEFAULT 0,
  warnings TEXT NOT NULL DEFAULT '[]',
  csv_mapping TEXT,                 -- CSV only: JSON {header, mapping, confirmed}
  status TEXT NOT NULL DEFAULT 'pending_review',  -- pending_review | in_progress | complete
  uploaded_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  completed_at TEXT
);
CREATE INDEX IF NOT EXISTS idx_statements_uploaded ON statements (uploaded_at);
CREATE INDEX IF NOT EXISTS idx_statements_sha ON statements (file_sha256);

CREATE TABLE IF NOT EXISTS statement_rows (
  statement_id TEXT NOT NULL,
  tx_index INTEGER NOT NULL,
  row_id TEXT NOT NULL,
  date TEXT NOT NULL,
  raw_description TEXT NOT NULL,
  cleaned_description TEXT NOT NULL,
  amount INTEGER NOT NULL,          -- cents
  type TEXT NOT NULL,               -- withdrawal | deposit
  balance INTEGER,                  -- cents
  occurrence INTEGER NOT NULL DEFAULT 0,
  fitid TEXT,
  reconcile_tier TEXT NOT NULL,
  db_forwarded_to TEXT,
  db_date_file_name TEXT,
  db_company TEXT,
  db_amount INTEGER,
  db_category TEXT,
  db_transaction_type TEXT,
  company_differs INTEGER NOT NULL DEFAULT 0,
  enrichable INTEGER NOT NULL DEFAULT 0,
  reason TEXT,
  candidates TEXT,
  suggested_category TEXT NOT NULL,
  action TEXT NOT NULL,
  edited INTEGER NOT NULL DEFAULT 0,
  edited_company TEXT,
  edited_category TEXT,
  action_result TEXT,
  acted_at TEXT,
  PRIMARY KEY (statement_id, tx_index)
);
CREATE INDEX IF NOT EXISTS idx_statement_rows_row ON statement_rows (row_id);
CREATE INDEX IF NOT EXISTS idx_statement_rows_db ON statement_rows (db_forwarded_to, db_date_file_name);

-- CSV column mappings a person confirmed, by header layout.
CREATE TABLE IF NOT EXISTS statement_csv_mappings (
  signature TEXT PRIMARY KEY,       -- the lowercased header row
  institution TEXT NOT NULL,
  mapping TEXT NOT NULL,            -- JSON
  confirmed_at TEXT NOT NULL
);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (8, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
