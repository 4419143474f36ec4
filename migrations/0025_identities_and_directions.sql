-- One identity per category and payer, and the direction of the e-Transfers already stored
-- (src/categorize/normalize.ts categoryKey / merchantName, src/lib/transaction-types.ts):
-- 1. A category is stored whitespace-tidied (tabs and runs of spaces become one space, trimmed);
--    its case is folded where it is compared (budget targets and groups are keyed on read).
UPDATE transactions
  SET Category = trim(replace(replace(replace(replace(replace(Category, char(9), ' '), char(10), ' '), '    ', ' '), '  ', ' '), '  ', ' '))
  WHERE Category IS NOT NULL
    AND Category <> trim(replace(replace(replace(Category, char(9), ' '), char(10), ' '), '  ', ' '));

-- 2. An e-Transfer's company was `payer | message | reference`: the reference differs on every
--    transfer, so one payer was many. The payer is the part before the first ` | ` (the message
--    and reference stay in the stored alert, Body).
UPDATE transactions
  SET Company = rtrim(substr(Company, 1, instr(Company, ' | ') - 1))
  WHERE instr(Company, ' | ') > 1;

-- 3. An e-Transfer the person sent was stored as `e-transfer` (money in). Its alert says so in its
--    own words; those rows become `e-transfer-sent` (money out). A row without such words (a hand
--    entry, an import) keeps its type.
UPDATE transactions
  SET TransactionType = 'e-transfer-sent'
  WHERE TransactionType = 'e-transfer'
    AND Body IS NOT NULL
    AND (Body LIKE '%you sent %' OR Body LIKE '%you have sent %' OR Body LIKE '%you''ve sent %'
      OR Body LIKE '%has accepted your%transfer%' OR Body LIKE '%vous avez envoy%'
      OR Body LIKE '%a accept_ votre virement%' OR Body LIKE '%a accept_ votre transfert%');

INSERT OR IGNORE INTO schema_version (version, applied_at) VALUES (25, strftime('%Y-%m-%dT%H:%M:%fZ','now'));
