-- A covering index for the month-range reads (summary, income statement, budget status, merchant
-- intelligence, search filters, the CSV export): every column they read is in the index, so a
-- year of rows is read from the index alone instead of one row lookup per transaction.
CREATE INDEX IF NOT EXISTS idx_transactions_month_cover
  ON transactions (DateFileName, TransactionType, Ignored, DeletedAt, Amount, Category, Company,
                   Date, Institution, Name, Comment, ForwardedTo);

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (14, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
