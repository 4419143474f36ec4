import { type FormEvent, useState } from "react";
import { useApp } from "../lib/app";
import { TX_TYPES } from "../lib/format";

export const FILTER_KEYS = [
  "from",
  "to",
  "q",
  "category",
  "institution",
  "company",
  "type",
  "min_amount",
  "max_amount",
  "include_ignored",
  "include_deleted",
] as const;
export type Filters = Partial<Record<(typeof FILTER_KEYS)[number], string>>;

const INSTITUTIONS = ["RBC", "CIBC", "MBNA", "Simplii", "PC Financial"];

/** A labelled select whose empty choice ("Any") means "no filter". */
function AnySelect(props: {
  label: string;
  value: string | undefined;
  options: readonly string[];
  onChange: (e: { target: { value: string } }) => void;
}) {
  return (
    <label className="field">
      <span>{props.label}</span>
      <select value={props.value ?? ""} onChange={props.onChange}>
        <option value="">Any</option>
        {props.options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    </label>
  );
}

/** The search API's filters as a form; submitting puts them in the URL. */
export function SearchForm({ initial, onSearch }: { initial: Filters; onSearch: (f: Filters) => void }) {
  const { categories } = useApp();
  const [f, setF] = useState<Filters>(initial);
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  const flag = (k: keyof Filters) => (e: { target: { checked: boolean } }) =>
    setF({ ...f, [k]: e.target.checked ? "true" : undefined });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(f);
  };
  return (
    <form className="card search-form" onSubmit={submit} aria-label="Search filters">
      <div className="form-grid">
        <label className="field span-2">
          <span>Text</span>
          <input
            type="search"
            value={f.q ?? ""}
            onChange={set("q")}
            placeholder="Merchant, category, comment…"
            maxLength={200}
          />
        </label>
        <label className="field">
          <span>From month</span>
          <input type="month" required value={f.from ?? ""} onChange={set("from")} />
        </label>
        <label className="field">
          <span>To month</span>
          <input type="month" required value={f.to ?? ""} onChange={set("to")} />
        </label>
        <AnySelect label="Category" value={f.category} options={categories} onChange={set("category")} />
        <label className="field">
          <span>Merchant contains</span>
          <input value={f.company ?? ""} onChange={set("company")} maxLength={200} />
        </label>
        <label className="field">
          <span>Institution</span>
          <input
            list="institutions"
            value={f.institution ?? ""}
            onChange={set("institution")}
            maxLength={100}
          />
          <datalist id="institutions">
            {INSTITUTIONS.map((i) => (
              <option key={i} value={i} />
            ))}
          </datalist>
        </label>
        <AnySelect label="Type" value={f.type} options={TX_TYPES} onChange={set("type")} />
        <label className="field">
          <span>Min amount</span>
          <input
            type="number"
            inputMode="decimal"
            step="0.01"
            value={f.min_amount ?? ""}
            onChange={set("min_amount")}
          />
        </label>
        <label className="field">
          <span>Max amount</span>
          <input
            type="number"
            inputMode="decimal"
            step="0.01"
            value={f.max_amount ?? ""}
            onChange={set("max_amount")}
          />
        </label>
      </div>
      <div className="form-foot">
        <label className="check">
          <input type="checkbox" checked={f.include_ignored === "true"} onChange={flag("include_ignored")} />{" "}
          Include ignored
        </label>
        <label className="check">
          <input type="checkbox" checked={f.include_deleted === "true"} onChange={flag("include_deleted")} />{" "}
          Include trash
        </label>
        <button type="submit" className="btn btn-primary">
          Search
        </button>
      </div>
    </form>
  );
}
