/**
 * The guards of a statement import's revert: the statement, its rows and the transactions they
 * touched as an import image (ledger-images.ts) shows them, each condition what `currentImage`
 * (import.ts) would read compared exactly.
 */
import { and, eq, exists, notExists, type SQL, sql } from "drizzle-orm";
import { type Db, rowShows, sameJson, sameText } from "../../db";
import { statementRowKeys as k, statementRows as r, transactions as t } from "../../db/schema";
import type { StoredImportImage } from "./ledger-images";
import { statementShows } from "./review-queries";
import { STATEMENT_RECIPIENT } from "./views";

type TxImage = NonNullable<StoredImportImage["transactions"][string]>;

const one = sql`1`;

/**
 * The key (`ForwardedTo\nDateFileName`) of the transaction a settled row touched, NULL for none:
 * import.ts `touchedKey` for a row whose synthetic key is stored (the join with its key row).
 */
const touched = sql`CASE
  WHEN ${r.action_result} = 'imported' THEN ${STATEMENT_RECIPIENT} || char(10) || ${k.date_file_name}
  WHEN ${r.action_result} IN ('enriched', 'updated') AND ${r.db_forwarded_to} <> '' AND ${r.db_date_file_name} <> ''
    THEN ${r.db_forwarded_to} || char(10) || ${r.db_date_file_name}
END`;

/** The statement's rows, each with its stored synthetic key (if any), filtered by `where`. */
const rowsWithKeys = (db: Db, id: string, where: SQL) =>
  db
    .select({ one })
    .from(r)
    .leftJoin(k, and(eq(k.statement_id, r.statement_id), eq(k.tx_index, r.tx_index)))
    .where(and(eq(r.statement_id, id), where));

/** True while transaction (fwd, dfn) shows `img` (its five image fields), or for null is absent. */
function txShows(db: Db, fwd: string, dfn: string, img: TxImage | null): SQL {
  return rowShows(
    db,
    t,
    and(sameText(t.ForwardedTo, fwd), sameText(t.DateFileName, dfn)),
    img && [
      sql`${t.Amount} IS ${img.Amount}`,
      sameText(t.Company, img.Company),
      sameText(t.Category, img.Category),
      sameJson(t.CategoryAudit, img.CategoryAudit),
      sameText(t.StatementSource, img.StatementSource),
    ],
  );
}

/**
 * Conditions that hold while statement `id` shows `shown` exactly: its status; every row (no more,
 * no fewer) with the image's action and result; no imported row without a stored key (its key
 * would be computed: the read path's to judge); the touched keys exactly the image's, each
 * transaction with the image's fields (or absent where it holds null). Each is one guard.
 */
export function importShows(db: Db, id: string, shown: StoredImportImage): SQL[] {
  const settled = statementShows(db, id, shown, (c) => [
    sameText(r.action, c.action),
    sameText(r.action_result, c.action_result),
    sameText(r.acted_at, c.acted_at),
  ]);
  const unkeyed = notExists(
    rowsWithKeys(db, id, sql`${r.action_result} = 'imported' AND ${k.date_file_name} IS NULL`),
  );
  const keys = Object.keys(shown.transactions);
  const noOther = notExists(
    rowsWithKeys(
      db,
      id,
      sql`(${touched}) IS NOT NULL AND (${touched}) NOT IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`,
    ),
  );
  const txs = Object.entries(shown.transactions).map(([key, img]) => {
    const [fwd, dfn] = key.split("\n") as [string, string];
    const named = exists(rowsWithKeys(db, id, sql`(${touched}) = ${key} COLLATE BINARY`));
    return and(named, txShows(db, fwd, dfn, img))!;
  });
  return [...settled, unkeyed, noOther, ...txs];
}
