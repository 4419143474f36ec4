// A CSV's columns as guessed (or, for a header nothing names, as best we can): the person confirms
// (or corrects) them once per header layout and names the institution; later files with the same
// header are read the same way. A preview of the first rows shows each row's date and sign (money
// out or money in) so a card export read with the wrong sign can be flipped before confirming.
import { type FormEvent, useState } from "react";
import { api, unwrap } from "../../api/client";
import { ErrorNotice } from "../../components/States";
import { useAction } from "../../components/useAction";
import type { StatementDetail } from "./types";

type State = NonNullable<StatementDetail["csv_mapping"]>;
type Mapping = State["mapping"];
type Col = "date" | "description" | "amount" | "withdrawal" | "deposit" | "balance" | "direction";
const ROLES: [Col, string, boolean][] = [
  ["date", "Date", false],
  ["description", "Description", false],
  ["amount", "Signed amount", true],
  ["withdrawal", "Withdrawal (money out)", true],
  ["deposit", "Deposit (money in)", true],
  ["balance", "Balance", true],
  ["direction", "Debit/credit column", true],
];

function Preview({ state, mapping }: { state: State; mapping: Mapping }) {
  const rows = state.preview ?? [];
  if (rows.length === 0) return null;
  // The server read the preview with the stored mapping; a changed sign convention flips it here.
  const flipped = mapping.amount !== null && mapping.negative_is !== state.mapping.negative_is;
  const cell = (cells: string[], col: number | null | undefined) => (col == null ? "" : (cells[col] ?? ""));
  return (
    <div className="span-all table-scroll">
      <table className="table" data-testid="csv-preview">
        <caption className="muted small">The first rows as they will be read</caption>
        <thead>
          <tr>
            <th>Date</th>
            <th>Description</th>
            <th className="num">As printed</th>
            <th>Read as</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => {
            const amount = r.amount === null ? null : flipped ? -r.amount : r.amount;
            const printed =
              mapping.amount != null
                ? cell(r.cells, mapping.amount)
                : [cell(r.cells, mapping.withdrawal), cell(r.cells, mapping.deposit)]
                    .filter(Boolean)
                    .join(" / ");
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity beyond their place
              <tr key={i}>
                <td>{r.date ?? <span className="muted">{cell(r.cells, mapping.date) || "—"}</span>}</td>
                <td>{cell(r.cells, mapping.description)}</td>
                <td className="num">{printed}</td>
                <td data-testid="csv-preview-sign">
                  {amount === null ? (
                    <span className="muted">not read</span>
                  ) : amount < 0 ? (
                    `money out ${Math.abs(amount).toFixed(2)}`
                  ) : (
                    `money in ${amount.toFixed(2)}`
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function CsvMappingForm({ s, onDone }: { s: StatementDetail; onDone: () => void }) {
  const state = s.csv_mapping!;
  const [mapping, setMapping] = useState<Mapping>(state.mapping);
  const [institution, setInstitution] = useState(s.institution === "Other" ? "" : s.institution);
  const { busy, error, run } = useAction();
  const columns = state.header.map((h, i) => ({ value: String(i), label: h || `Column ${i + 1}` }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run(async () => {
      await unwrap(
        api.PUT("/api/v1/statements/{statement_id}/csv-mapping", {
          params: { path: { statement_id: s.id } },
          body: { institution, mapping },
        }),
      );
      onDone();
    }, "Columns confirmed; later files with these columns are read the same way");
  };
  const set = (k: keyof Mapping, v: string | boolean) =>
    setMapping((m) => ({
      ...m,
      [k]:
        typeof v === "boolean" || k === "date_order" || k === "negative_is" ? v : v === "" ? null : Number(v),
    }));
  return (
    <form className="card form-grid" onSubmit={submit} data-testid="csv-mapping">
      <h2 className="span-all">Check the columns of this CSV</h2>
      {state.refused ? (
        <p className="notice notice-warn span-all" role="alert" data-testid="csv-refused">
          No row was read yet: this file's header names no date and amount column we know. Pick the columns
          below; the preview shows how the first rows will be read.
        </p>
      ) : (
        <p className="muted small span-all">
          Confirm once; files with the same columns are then read without asking.
        </p>
      )}
      <label className="field">
        <span>Institution</span>
        <input value={institution} onChange={(e) => setInstitution(e.target.value)} required maxLength={60} />
      </label>
      {ROLES.map(([key, label, optional]) => (
        <label className="field" key={key}>
          <span>{label}</span>
          <select
            value={String(mapping[key] ?? "")}
            onChange={(e) => set(key, e.target.value)}
            data-testid={`csv-col-${key}`}
          >
            {optional && <option value="">(none)</option>}
            {columns.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      ))}
      <label className="field">
        <span>Date order</span>
        <select value={mapping.date_order} onChange={(e) => set("date_order", e.target.value)}>
          <option value="mdy">month/day/year</option>
          <option value="dmy">day/month/year</option>
          <option value="ymd">year-month-day</option>
        </select>
      </label>
      <label className="check span-all">
        <input
          type="checkbox"
          checked={mapping.negative_is === "deposit"}
          disabled={mapping.amount === null}
          onChange={(e) => set("negative_is", e.target.checked ? "deposit" : "withdrawal")}
          data-testid="csv-flip"
        />
        <span>Flip signs (a card export that prints purchases as positive amounts)</span>
      </label>
      <label className="check span-all">
        <input
          type="checkbox"
          checked={mapping.has_header === false}
          onChange={(e) => set("has_header", !e.target.checked)}
        />
        <span>The first line is a transaction (the file has no header)</span>
      </label>
      <Preview state={state} mapping={mapping} />
      <div className="span-all">
        <button type="submit" className="btn btn-primary" disabled={busy || !institution.trim()}>
          Confirm columns and read again
        </button>
      </div>
      <ErrorNotice error={error} />
    </form>
  );
}
