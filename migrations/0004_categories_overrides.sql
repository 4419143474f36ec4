-- 0004: category and override management. Idempotent: every statement can run twice without effect.

-- One monotonically increasing version per configuration list ('categories', 'overrides',
-- 'merchant_aliases', 'ignore_rules'): the `version` field of the list responses, bumped in the
-- same batch as the write it counts.
CREATE TABLE IF NOT EXISTS config_versions (
  name TEXT PRIMARY KEY,
  version INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
);

-- Dismissed override suggestions, kept under `company_lower|category_lower`. A suggestion comes
-- back when a correction newer than `dismissed_at` arrives.
CREATE TABLE IF NOT EXISTS dismissed_suggestions (
  key TEXT PRIMARY KEY,
  company TEXT NOT NULL,
  category TEXT NOT NULL,
  dismissed_at TEXT NOT NULL
);

-- Ignore rules: a transaction whose company matches a pattern is pinned to Ignored.
CREATE TABLE IF NOT EXISTS ignore_rules (
  pattern TEXT PRIMARY KEY COLLATE NOCASE,
  created_at TEXT NOT NULL
);

-- Dismissed ignore-rule suggestions (never resurface on their own).
CREATE TABLE IF NOT EXISTS dismissed_ignore_suggestions (
  merchant TEXT PRIMARY KEY COLLATE NOCASE,
  dismissed_at TEXT NOT NULL
);

-- Category usage, rename and delete reassignment compare Category case-insensitively.
CREATE INDEX IF NOT EXISTS idx_transactions_category ON transactions (Category COLLATE NOCASE);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (4, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
