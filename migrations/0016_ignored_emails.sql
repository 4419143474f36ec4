-- Issue 27 and 26: nothing relevant is lost silently, forwarded alerts are trusted only from known
-- forwarders, and card digits map to the cardholder's name (SPEC's Name).
-- Emails the relevance check let go, kept 90 days (the daily retention duty prunes older rows).
CREATE TABLE IF NOT EXISTS ignored_emails (
  id TEXT PRIMARY KEY,
  status TEXT NOT NULL DEFAULT 'ignored',
  reason TEXT NOT NULL,
  reason_text TEXT NOT NULL,
  from_name TEXT,
  from_email TEXT,
  subject TEXT,
  email_date TEXT,
  message_id TEXT,
  forwarded_to TEXT,
  raw_key TEXT,
  raw_sha256 TEXT NOT NULL,
  failure_id TEXT,
  received_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_ignored_emails_received ON ignored_emails (received_at);

-- Addresses the owner vouched for: `alert_sender` (its emails always pass the relevance check)
-- and `forwarder` (its forwarded alerts are trusted without a confirmation).
CREATE TABLE IF NOT EXISTS sender_trust (
  address TEXT NOT NULL,
  kind TEXT NOT NULL,
  source TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (address, kind)
);

-- Card (or account) last four digits → cardholder first name, per institution.
CREATE TABLE IF NOT EXISTS card_names (
  institution TEXT NOT NULL,
  last_four TEXT NOT NULL,
  name TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (institution, last_four)
);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (16, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
