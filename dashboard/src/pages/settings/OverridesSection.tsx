import { type FormEvent, useState } from "react";
import { api, unwrap } from "../../api/client";
import type { OverrideEntry } from "../../api/types";
import { Empty, ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { categoryLabel } from "../../lib/format";
import { useApi } from "../../lib/useApi";

/** Merchant → category rules (overrides): add, change, remove. */
export function OverridesSection() {
  const { canWrite, categories } = useApp();
  const list = useApi(() => unwrap(api.GET("/api/v1/overrides")), "overrides");
  const [company, setCompany] = useState("");
  const [category, setCategory] = useState(categories[0] ?? "");
  const [filter, setFilter] = useState("");
  const { busy, error, run } = useAction();
  const put = (co: string, cat: string, message: string) =>
    run(async () => {
      await unwrap(
        api.PUT("/api/v1/overrides/{company}", {
          params: { path: { company: co } },
          body: { category: cat },
        }),
      );
      list.reload();
    }, message);
  const remove = (co: string) =>
    run(async () => {
      await unwrap(api.DELETE("/api/v1/overrides/{company}", { params: { path: { company: co } } }));
      list.reload();
    }, `Rule for ${co} removed`);
  const add = (e: FormEvent) => {
    e.preventDefault();
    put(company.trim(), category, `${company.trim()} is now always ${category}`);
    setCompany("");
  };
  const f = filter.trim().toLowerCase();
  const rows = (list.data?.overrides ?? []).filter(
    (o) => !f || o.company.toLowerCase().includes(f) || o.category.toLowerCase().includes(f),
  );
  return (
    <div className="card" id="overrides">
      <h2>Merchant rules {list.data && <span className="count">{list.data.count}</span>}</h2>
      <p className="muted small">A rule files every transaction from a merchant under one category.</p>
      <form className="inline wrap" onSubmit={add} aria-label="Add a merchant rule">
        <label className="field grow">
          <span>Merchant</span>
          <input required maxLength={200} value={company} onChange={(e) => setCompany(e.target.value)} />
        </label>
        <label className="field">
          <span>Category</span>
          <select value={category} onChange={(e) => setCategory(e.target.value)}>
            {categories.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          className="btn btn-primary align-end"
          disabled={!canWrite || busy || !company.trim()}
        >
          Add rule
        </button>
      </form>
      <ErrorNotice error={error ?? list.error} />
      {!list.data && list.loading && <Loading rows={3} />}
      {list.data && list.data.count > 8 && (
        <input
          type="search"
          className="filter"
          aria-label="Filter rules"
          placeholder="Filter rules"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      )}
      {list.data && rows.length === 0 && <Empty title={f ? "No rule matches" : "No merchant rules yet"} />}
      <ul className="plain-list" data-testid="override-list">
        {rows.map((o) => (
          <OverrideRow key={o.company} o={o} onPut={put} onRemove={remove} busy={busy} />
        ))}
      </ul>
    </div>
  );
}

function OverrideRow(props: {
  o: OverrideEntry;
  onPut: (co: string, cat: string, message: string) => void;
  onRemove: (co: string) => void;
  busy: boolean;
}) {
  const { o, onPut, onRemove, busy } = props;
  const { canWrite, categories } = useApp();
  const label = categoryLabel(o.category, categories);
  return (
    <li className="row-between wrap">
      <span className="grow">{o.company}</span>
      <span className="inline">
        <select
          aria-label={`Category for ${o.company}`}
          value={label}
          disabled={!canWrite || busy}
          onChange={(e) => onPut(o.company, e.target.value, `${o.company} is now always ${e.target.value}`)}
        >
          {!categories.includes(label) && <option>{label}</option>}
          {categories.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
        <button
          type="button"
          className="btn btn-small btn-danger-quiet"
          onClick={() => onRemove(o.company)}
          disabled={!canWrite || busy}
          aria-label={`Remove the rule for ${o.company}`}
        >
          Remove
        </button>
      </span>
    </li>
  );
}
