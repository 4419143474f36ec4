-- 0001: foundation schema. Idempotent: every statement can run twice without effect.
CREATE TABLE IF NOT EXISTS schema_version (
  version INTEGER PRIMARY KEY,
  applied_at TEXT NOT NULL
);

-- Transactions: column names are SPEC.md's stored names, identical to the export.
CREATE TABLE IF NOT EXISTS transactions (
  ForwardedTo TEXT NOT NULL,
  DateFileName TEXT NOT NULL,
  TransactionHash TEXT,
  UserId TEXT,
  Institution TEXT,
  Amount INTEGER,            -- cents (0007 converts journals created before that migration)
  Company TEXT,
  TransactionType TEXT,
  Category TEXT,
  Name TEXT,
  Date TEXT,
  FileName TEXT,
  FromName TEXT,
  FromEmail TEXT,
  ToName TEXT,
  ToEmail TEXT,
  Subject TEXT,
  Body TEXT,
  CategoryAudit TEXT,        -- JSON map
  ExtractionAudit TEXT,      -- JSON map
  Ignored INTEGER NOT NULL DEFAULT 0,
  Comment TEXT,
  DeletedAt TEXT,
  TransactionContext TEXT,   -- JSON map
  StatementSource TEXT,
  CreatedAt TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (ForwardedTo, DateFileName)
);
-- Month queries are range scans on the DateFileName prefix ('YYYY.MM.').
CREATE INDEX IF NOT EXISTS idx_transactions_month ON transactions (DateFileName);
CREATE INDEX IF NOT EXISTS idx_transactions_user_month ON transactions (UserId, DateFileName);
CREATE INDEX IF NOT EXISTS idx_transactions_created ON transactions (CreatedAt);
-- Dedup is atomic: two deliveries of one email at once still write one row.
CREATE UNIQUE INDEX IF NOT EXISTS uq_transactions_hash ON transactions (ForwardedTo, TransactionHash);

-- Application configuration: one JSON document (AppConfig fields), versioned.
CREATE TABLE IF NOT EXISTS app_config (
  id TEXT PRIMARY KEY,
  data TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1,
  updated_at TEXT NOT NULL
);

-- Recipient address (forwarded-to) -> UserId.
CREATE TABLE IF NOT EXISTS user_mappings (
  ForwardedTo TEXT PRIMARY KEY COLLATE NOCASE,
  UserId TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Mailbox poller state: the health heartbeat and the UID cursor.
CREATE TABLE IF NOT EXISTS poller_state (
  id TEXT PRIMARY KEY,
  last_uid INTEGER NOT NULL DEFAULT 0,
  uid_validity INTEGER,
  last_poll_at TEXT,
  last_attempt_at TEXT,
  next_attempt_at TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  last_error TEXT
);

-- Parse-failure quarantine: relevant emails that yielded no usable transaction.
CREATE TABLE IF NOT EXISTS parse_failures (
  id TEXT PRIMARY KEY,
  status TEXT NOT NULL DEFAULT 'quarantined',
  failure_stage TEXT NOT NULL,
  institution TEXT,
  forwarded_to TEXT,
  from_name TEXT,
  from_email TEXT,
  to_email TEXT,
  subject TEXT,
  body TEXT,
  email_date TEXT,
  raw_key TEXT,
  detail TEXT,
  resolved_tx TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_parse_failures_created ON parse_failures (created_at);
CREATE INDEX IF NOT EXISTS idx_parse_failures_status ON parse_failures (status, created_at);

-- Small runtime state (AI categorization status, caches' versions, ...): key -> JSON value.
CREATE TABLE IF NOT EXISTS kv_state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- The user's category list (replaces the 39 defaults after first use).
CREATE TABLE IF NOT EXISTS categories (
  name TEXT PRIMARY KEY COLLATE NOCASE,
  group_name TEXT,
  icon TEXT,
  position INTEGER NOT NULL DEFAULT 0
);

-- Company -> category overrides (resolver tiers 0-3) and merchant aliases (tier 2).
CREATE TABLE IF NOT EXISTS overrides (
  company TEXT PRIMARY KEY COLLATE NOCASE,
  category TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS merchant_aliases (
  raw_name TEXT PRIMARY KEY COLLATE NOCASE,
  canonical TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- Budget configuration: per user and year, two items (targets, groups), each versioned.
CREATE TABLE IF NOT EXISTS budget_config (
  user_id TEXT NOT NULL,
  year INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('targets', 'groups')),
  data TEXT NOT NULL,
  version INTEGER NOT NULL DEFAULT 1,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (user_id, year, kind)
);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (1, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
