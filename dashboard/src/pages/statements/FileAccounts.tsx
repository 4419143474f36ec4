// A file that held several accounts (OFX, QIF, CAMT) becomes one statement per account: after the
// upload, every review of that file shows the file's accounts, each opening its own review.
import { accountTypeLabel } from "../../lib/format";
import { Link } from "../../lib/router";
import type { UploadResponse } from "./types";

export interface FileAccount {
  id: string;
  account: string | null;
  account_type: string;
  rows: number;
}

/** `?file=` value: `id~type~account~rows` per account, comma-separated (ids are `stmt_<hex>`). */
export const fileParam = (r: UploadResponse): string =>
  [
    {
      id: r.statement_id,
      account: r.metadata.account ?? null,
      account_type: r.metadata.account_type,
      rows: r.metadata.transaction_count,
    },
    ...r.other_statements.map((o) => ({
      id: o.statement_id,
      account: o.account ?? null,
      account_type: o.account_type,
      rows: o.transaction_count,
    })),
  ]
    .map((a) => [a.id, a.account_type, a.account ?? "", a.rows].map(encodeURIComponent).join("~"))
    .join(",");

export function parseFileParam(value: string | null): FileAccount[] {
  if (!value) return [];
  return value.split(",").flatMap((part) => {
    const [id, type, account, rows] = part.split("~").map(decodeURIComponent);
    return id && /^stmt_[0-9a-f]+$/.test(id)
      ? [{ id, account_type: type ?? "", account: account || null, rows: Number(rows) || 0 }]
      : [];
  });
}

export const reviewHref = (id: string, file: string | null) =>
  `/statements?id=${encodeURIComponent(id)}${file ? `&file=${encodeURIComponent(file)}` : ""}`;

export function FileAccounts({
  accounts,
  current,
  file,
}: {
  accounts: FileAccount[];
  current: string;
  file: string;
}) {
  if (accounts.length < 2) return null;
  return (
    <nav aria-labelledby="file-accounts-h" className="card file-accounts" data-testid="file-accounts">
      <h2 id="file-accounts-h" className="small-h">
        This file held {accounts.length} accounts, each reviewed on its own
      </h2>
      <ul className="row-gap file-accounts-list">
        {accounts.map((a, i) => (
          <li key={a.id}>
            <Link
              to={reviewHref(a.id, file)}
              className={`btn btn-small${a.id === current ? " btn-primary" : ""}`}
              aria-current={a.id === current ? "page" : undefined}
            >
              {i + 1}. {accountTypeLabel(a.account_type)}
              {a.account ? ` ${a.account}` : ""} · {a.rows} {a.rows === 1 ? "row" : "rows"}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
