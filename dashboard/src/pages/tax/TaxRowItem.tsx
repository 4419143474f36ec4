// One row of a claim line: the facts, its evidence, and what can be done with it (exclude or
// clear, move to another line, attach the missing receipt).
import { useRef } from "react";
import { money } from "../../lib/format";
import { uploadReceipt } from "../receipts/api";
import type { LineOption, TaxRow } from "./api";

const EVIDENCE: Record<string, string> = {
  receipt: "Receipt",
  statement: "Statement",
  email: "Email",
  none: "No evidence",
};

export interface RowActions {
  exclude: (r: TaxRow) => void;
  clear: (r: TaxRow) => void;
  move: (r: TaxRow, key: string) => void;
  attached: (r: TaxRow, upload: () => Promise<unknown>) => void;
}

interface Props {
  row: TaxRow;
  lineKey: string;
  excluded?: boolean;
  options: LineOption[];
  canWrite: boolean;
  busy: boolean;
  act: RowActions;
}

export function TaxRowItem({ row, lineKey, excluded, options, canWrite, busy, act }: Props) {
  const file = useRef<HTMLInputElement>(null);
  return (
    <li
      className={`tax-row${excluded ? " tax-row-excluded" : ""}`}
      data-testid="tax-row"
      data-tx-id={row.tx_id}
    >
      <span className="tax-row-date muted">{row.date}</span>
      <span className="tax-row-company">{row.company || "—"}</span>
      <span className="tax-row-amount num">{money(row.amount)}</span>
      <span className="tax-row-meta">
        <span className="muted small">{row.category}</span>
        <span className={`tag ${row.evidence === "none" ? "tag-warn" : "tag-ok"}`} data-testid="tax-evidence">
          {EVIDENCE[row.evidence] ?? row.evidence}
        </span>
        {row.manual && !excluded && <span className="tag">Added by you</span>}
      </span>
      {canWrite && (
        <span className="tax-row-actions">
          {excluded ? (
            <button type="button" className="btn btn-small" disabled={busy} onClick={() => act.clear(row)}>
              Restore
            </button>
          ) : row.manual ? (
            <button type="button" className="btn btn-small" disabled={busy} onClick={() => act.clear(row)}>
              Undo flag
            </button>
          ) : (
            <button type="button" className="btn btn-small" disabled={busy} onClick={() => act.exclude(row)}>
              Exclude
            </button>
          )}
          {!excluded && (
            <select
              className="btn-small"
              aria-label={`Move ${row.company} to another line`}
              value=""
              disabled={busy}
              onChange={(e) => e.target.value && act.move(row, e.target.value)}
            >
              <option value="">Move to…</option>
              {options
                .filter((o) => o.key !== lineKey)
                .map((o) => (
                  <option key={o.key} value={o.key}>
                    {o.label}
                  </option>
                ))}
            </select>
          )}
          {!excluded && row.evidence !== "receipt" && (
            <>
              <button
                type="button"
                className="btn btn-small"
                disabled={busy}
                onClick={() => file.current?.click()}
              >
                Attach receipt
              </button>
              <input
                ref={file}
                className="visually-hidden-input"
                type="file"
                accept="image/*,.heic,.heif,application/pdf"
                tabIndex={-1}
                aria-label={`Receipt for ${row.company}`}
                data-testid="tax-attach-file"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  e.target.value = "";
                  if (f) act.attached(row, () => uploadReceipt(f, row.tx_id));
                }}
              />
            </>
          )}
        </span>
      )}
    </li>
  );
}
