// The budget editor: a target per category (entered monthly or yearly, the other derived), its type,
// its group, and the yearly ceiling. Saving sends the versions it read: when someone else saved in
// between, the API answers 409 and the page says so, keeping every edit on screen.
import { useRef, useState } from "react";
import { api, onReversibleWrite, unwrap } from "../api/client";
import { ApiError } from "../api/errors";
import type { components } from "../api/schema";
import { type Row, rowsFrom, toRequest } from "../components/money-pages/budgetForm";
import { BudgetRowEditor } from "../components/money-pages/BudgetRowEditor";
import { ErrorNotice, Loading } from "../components/States";
import { useToast } from "../components/Toast";
import { useAction } from "../components/useAction";
import { useYearParam, YearPicker } from "../components/money-pages/YearPicker";
import { useApp } from "../lib/app";
import { categoryLabel, money } from "../lib/format";
import { Link, useLeaveGuard } from "../lib/router";
import { useApi } from "../lib/useApi";

type Config = components["schemas"]["BudgetConfigResponse"];
type Averages = components["schemas"]["HistoricalAveragesResponse"];

export function BudgetEditorPage() {
  const { year, setYear } = useYearParam();
  const data = useApi(
    () =>
      Promise.all([
        unwrap(api.GET("/api/v1/budget/config", { params: { query: { year } } })),
        unwrap(api.GET("/api/v1/budget/historical-averages", { params: { query: { months: 6 } } })),
      ]),
    `${year}`,
  );
  return (
    <section aria-labelledby="budget-edit-h">
      <div className="page-head">
        <h1 id="budget-edit-h">Edit budget</h1>
        <div className="row-gap">
          <YearPicker value={year} onChange={setYear} />
          <Link to={`/budget?year=${year}`} className="btn">
            Back to the budget
          </Link>
        </div>
      </div>
      <ErrorNotice error={data.error} onRetry={data.reload} />
      {!data.data && data.loading && <Loading rows={8} />}
      {data.data && (
        <EditorForm
          // A fresh read (after "reload") starts a fresh form.
          key={`${data.data[0].targets_version}-${data.data[0].groups_version}-${year}`}
          config={data.data[0]}
          averages={data.data[1]}
          onReload={data.reload}
        />
      )}
    </section>
  );
}

function EditorForm({
  config,
  averages,
  onReload,
}: {
  config: Config;
  averages: Averages;
  onReload: () => void;
}) {
  const { categories, canWrite } = useApp();
  const [rows, setRows] = useState<Row[]>(() => rowsFrom(config));
  const [ceiling, setCeiling] = useState(String(config.spending_ceiling || ""));
  const [versions, setVersions] = useState({ t: config.targets_version, g: config.groups_version });
  const [stale, setStale] = useState(false);
  const [adding, setAdding] = useState("");
  const { busy, error, setError, run } = useAction();
  const notify = useToast();
  const staleRef = useRef<HTMLDivElement>(null);
  // What was last read or saved: leaving with anything else asks first.
  const [savedAs, setSavedAs] = useState(() =>
    JSON.stringify([rowsFrom(config), String(config.spending_ceiling || "")]),
  );
  const dirty = JSON.stringify([rows, ceiling]) !== savedAs;
  useLeaveGuard(
    dirty && canWrite ? "Leave the budget editor? Your changes to the budget are not saved." : null,
  );

  const annual = rows.reduce((sum, r) => sum + r.annual, 0);
  const used = new Set(rows.map((r) => r.category.toLowerCase()));
  const addable = categories.filter((c) => !used.has(c.toLowerCase()));
  const groups = [...new Set(rows.map((r) => r.group.trim()).filter(Boolean))];
  const update = (i: number, next: Row) => setRows((rs) => rs.map((r, j) => (j === i ? next : r)));

  const prefill = () =>
    setRows((rs) => {
      const byKey = new Map(rs.map((r) => [r.category.toLowerCase(), r]));
      for (const [name, a] of Object.entries(averages.categories)) {
        const prev = byKey.get(name.toLowerCase());
        const monthly = Math.round(a.suggested_monthly * 100) / 100;
        byKey.set(name.toLowerCase(), {
          category: prev?.category ?? categoryLabel(name, categories),
          group: prev?.group ?? "",
          mode: "monthly",
          amount: String(monthly),
          annual: Math.round(monthly * 1200) / 100,
          type: (["fixed", "variable", "lumpy"].includes(a.suggested_type)
            ? a.suggested_type
            : "variable") as Row["type"],
        });
      }
      return [...byKey.values()];
    });

  const save = () =>
    run(async () => {
      // The save's ledger entries, for the toast's Undo.
      const entries: string[] = [];
      const stop = onReversibleWrite((id) => entries.push(id));
      try {
        const saved = await unwrap(
          api.PUT("/api/v1/budget/config", {
            params: { query: { year: config.year } },
            body: toRequest(rows, Number(ceiling) || 0, versions.t, versions.g),
          }),
        ).finally(stop);
        setVersions({ t: saved.targets_version, g: saved.groups_version });
        setSavedAs(JSON.stringify([rows, ceiling]));
        setStale(false);
        notify("Budget saved", "ok", entries);
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) {
          setStale(true);
          // The prompt sits above the form; bring it into view from the save button.
          requestAnimationFrame(() => staleRef.current?.scrollIntoView({ block: "center" }));
          return;
        }
        throw err;
      }
    });

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        void save();
      }}
    >
      {stale && (
        <div className="notice notice-warn" role="alert" data-testid="stale-budget" ref={staleRef}>
          <p>
            <strong>Someone else saved this budget</strong> after you opened it. Your edits are still here,
            unsaved. Reload to see their version (your edits will be replaced), or note your changes first.
          </p>
          <button type="button" className="btn btn-small" onClick={onReload}>
            Reload the saved budget
          </button>
        </div>
      )}
      <div className="card">
        <h2>Yearly ceiling</h2>
        <div className="inline wrap">
          <label className="field">
            <span>Most you mean to spend in {config.year}</span>
            <input
              type="number"
              inputMode="decimal"
              min="0"
              step="0.01"
              value={ceiling}
              onChange={(e) => setCeiling(e.target.value)}
              aria-label="Yearly ceiling"
            />
          </label>
          <div className="field">
            <span>Your targets add up to</span>
            <strong data-testid="proposed-ceiling">{money(annual)}</strong>
          </div>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => setCeiling(String(Math.round(annual * 100) / 100))}
            disabled={!annual}
          >
            Use the sum as the ceiling
          </button>
        </div>
      </div>
      <div className="card">
        <div className="row-between wrap">
          <h2>Targets by category</h2>
          <button type="button" className="btn btn-small" onClick={prefill} data-testid="prefill">
            Pre-fill from my last {averages.months_analyzed} months
          </button>
        </div>
        <p className="muted small">
          Enter each target per month or per year; the other is worked out. The type is suggested from your
          history: fixed (same every month), variable, lumpy (a few big months).
        </p>
        <datalist id="budget-groups">
          {groups.map((g) => (
            <option key={g} value={g} />
          ))}
        </datalist>
        <ul className="budget-edit-list">
          {rows.map((r, i) => (
            <BudgetRowEditor
              key={r.category}
              row={r}
              suggested={averages.categories[r.category.toLowerCase()]}
              onChange={(next) => update(i, next)}
              onRemove={() => setRows((rs) => rs.filter((_, j) => j !== i))}
            />
          ))}
        </ul>
        <div className="inline wrap">
          <label className="field">
            <span>Add a category</span>
            <select value={adding} onChange={(e) => setAdding(e.target.value)} aria-label="Add a category">
              <option value="">Choose…</option>
              {addable.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="btn btn-small"
            disabled={!adding}
            onClick={() => {
              const a = averages.categories[adding.toLowerCase()];
              setRows((rs) => [
                ...rs,
                {
                  category: adding,
                  group: "",
                  mode: "monthly",
                  amount: "",
                  annual: 0,
                  type: (a?.suggested_type as Row["type"]) ?? "variable",
                },
              ]);
              setAdding("");
            }}
          >
            Add
          </button>
        </div>
      </div>
      <ErrorNotice error={error} />
      <div className="form-foot sticky-foot">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!canWrite || busy}
          data-testid="save-budget"
        >
          {busy ? "Saving…" : "Save budget"}
        </button>
        <span className="muted small">
          {rows.length} categories · {money(annual)} a year · {money(annual / 12)} a month
        </span>
      </div>
    </form>
  );
}
