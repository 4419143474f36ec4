// A CSV's columns as guessed: the person confirms (or corrects) them once per header layout and
// names the institution; later files with the same header are read the same way.
import { type FormEvent, useState } from "react";
import { api, unwrap } from "../../api/client";
import { ErrorNotice } from "../../components/States";
import { useAction } from "../../components/useAction";
import type { StatementDetail } from "./types";

type Mapping = NonNullable<StatementDetail["csv_mapping"]>["mapping"];
const ROLES: [keyof Mapping, string, boolean][] = [
  ["date", "Date", false],
  ["description", "Description", false],
  ["amount", "Signed amount", true],
  ["withdrawal", "Withdrawal", true],
  ["deposit", "Deposit", true],
  ["balance", "Balance", true],
];

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
  const set = (k: keyof Mapping, v: string) =>
    setMapping((m) => ({
      ...m,
      [k]: k === "date_order" || k === "negative_is" ? v : v === "" ? null : Number(v),
    }));
  return (
    <form className="card form-grid" onSubmit={submit} data-testid="csv-mapping">
      <h2 className="span-2">Check the columns of this CSV</h2>
      <p className="muted small span-2">
        Confirm once; files with the same columns are then read without asking.
      </p>
      <label className="field">
        <span>Institution</span>
        <input value={institution} onChange={(e) => setInstitution(e.target.value)} required maxLength={60} />
      </label>
      {ROLES.map(([key, label, optional]) => (
        <label className="field" key={key}>
          <span>{label}</span>
          <select value={String(mapping[key] ?? "")} onChange={(e) => set(key, e.target.value)}>
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
      <label className="field">
        <span>A negative amount is</span>
        <select value={mapping.negative_is} onChange={(e) => set("negative_is", e.target.value)}>
          <option value="withdrawal">money out (a withdrawal)</option>
          <option value="deposit">money in (a card payment)</option>
        </select>
      </label>
      <div className="span-2">
        <button type="submit" className="btn btn-primary" disabled={busy || !institution.trim()}>
          Confirm columns and read again
        </button>
      </div>
      <ErrorNotice error={error} />
    </form>
  );
}
