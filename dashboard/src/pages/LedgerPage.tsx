// The ledger: every transaction of one to twelve months in a sortable, filterable table; add by
// hand, edit a row, re-file a selection, and the trash of the same months.
import { useMemo, useState } from "react";
import { api, unwrap } from "../api/client";
import type { Transaction } from "../api/types";
import { AddTransaction } from "../components/ledger/AddTransaction";
import { BulkBar } from "../components/ledger/BulkBar";
import { LedgerEdit } from "../components/ledger/LedgerEdit";
import {
  filterRows,
  type Filter,
  monthsEnding,
  type Sort,
  sortRows,
  TX_TYPES,
} from "../components/ledger/ledgerModel";
import { LedgerTable } from "../components/ledger/LedgerTable";
import { LedgerTrash } from "../components/ledger/LedgerTrash";
import { Money } from "../components/Money";
import { MonthPicker } from "../components/MonthPicker";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { useApp } from "../lib/app";
import { isIncoming, monthLabel, count } from "../lib/format";
import { useMonthParam } from "../lib/month";
import { navigate, useLocation } from "../lib/router";
import { useApi } from "../lib/useApi";

const SPANS = [1, 3, 6, 12];
const PAGE = 150;
type Tab = "rows" | "trash" | "add";

export function LedgerPage() {
  const { categories, config } = useApp();
  const { month, thisMonth, setMonth } = useMonthParam();
  const { query } = useLocation();
  const span = SPANS.includes(Number(query.get("span"))) ? Number(query.get("span")) : 1;
  const months = monthsEnding(month, span);
  const data = useApi(
    () => unwrap(api.GET("/api/v1/transactions/bulk", { params: { query: { months: months.join(",") } } })),
    months.join(","),
  );
  const [tab, setTab] = useState<Tab>("rows");
  const [sort, setSort] = useState<Sort>({ key: "date", dir: -1 });
  const [filter, setFilter] = useState<Filter>({ text: "", category: "", type: "" });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<Transaction | null>(null);
  // Twelve months can be a thousand rows: draw the first ones, more on request.
  const [limit, setLimit] = useState(PAGE);

  const all = useMemo(
    () => Object.values(data.data ?? {}).flatMap((m) => m.transactions.transactions),
    [data.data],
  );
  const trash = useMemo(
    () => Object.values(data.data ?? {}).flatMap((m) => m.trash.transactions),
    [data.data],
  );
  const shown = useMemo(() => sortRows(filterRows(all, filter), sort), [all, filter, sort]);
  const chosen = shown.filter((t) => selected.has(t.tx_id));
  const counted = shown.filter((t) => !t.ignored);
  const out = counted.filter((t) => !isIncoming(t.transaction_type)).reduce((s, t) => s + (t.amount ?? 0), 0);
  const inn = counted.filter((t) => isIncoming(t.transaction_type)).reduce((s, t) => s + (t.amount ?? 0), 0);
  const setSpan = (n: number) => {
    const q = new URLSearchParams(query);
    if (n === 1) q.delete("span");
    else q.set("span", String(n));
    navigate(`/ledger${q.size ? `?${q}` : ""}`);
  };
  const changed = () => {
    setSelected(new Set());
    data.reload();
  };
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: config.timezone }).format(new Date());

  return (
    <section aria-labelledby="ledger-h">
      <div className="page-head">
        <h1 id="ledger-h">Ledger</h1>
        <div className="row-gap">
          <MonthPicker value={month} onChange={setMonth} max={thisMonth} />
          <label className="field inline-field">
            <span className="sr-only">Months shown</span>
            <select value={span} onChange={(e) => setSpan(Number(e.target.value))} aria-label="Months shown">
              {SPANS.map((n) => (
                <option key={n} value={n}>
                  {n === 1 ? "this month" : `${n} months`}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <div className="subnav" role="tablist" aria-label="Ledger views">
        {(
          [
            ["rows", `Transactions${data.data ? ` (${all.length})` : ""}`],
            ["trash", `Trash${data.data ? ` (${trash.length})` : ""}`],
            ["add", "Add by hand"],
          ] as const
        ).map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            className="btn btn-small"
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <ErrorNotice error={data.error} onRetry={data.reload} />
      {!data.data && data.loading && <Loading rows={8} />}
      {tab === "add" && (
        <AddTransaction
          today={today}
          onAdded={(m) => {
            setTab("rows");
            if (!months.includes(m)) setMonth(m);
            else data.reload();
          }}
        />
      )}
      {data.data && tab === "trash" && (
        <div className="card">
          <h2>
            Trash ·{" "}
            {span === 1 ? monthLabel(month) : `${monthLabel(months.at(-1) ?? month)} – ${monthLabel(month)}`}
          </h2>
          <p className="muted small">Trashed transactions count nowhere until you restore them.</p>
          <LedgerTrash rows={trash} onChanged={changed} />
        </div>
      )}
      {data.data && tab === "rows" && (
        <div className="card">
          <div className="ledger-filters">
            <input
              type="search"
              placeholder="Filter: merchant, category, amount…"
              aria-label="Filter the ledger"
              value={filter.text}
              onChange={(e) => setFilter({ ...filter, text: e.target.value })}
            />
            <select
              value={filter.category}
              onChange={(e) => setFilter({ ...filter, category: e.target.value })}
              aria-label="Only this category"
            >
              <option value="">Every category</option>
              {categories.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            <select
              value={filter.type}
              onChange={(e) => setFilter({ ...filter, type: e.target.value })}
              aria-label="Only this type"
            >
              <option value="">Every type</option>
              {TX_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          <p className="small muted" data-testid="ledger-totals">
            {count(shown.length, "transaction")} · out <Money value={out} /> · in{" "}
            <Money value={inn} incoming /> (ignored rows not counted)
          </p>
          {chosen.length > 0 && <BulkBar rows={chosen} onDone={changed} />}
          {shown.length === 0 ? (
            <Empty title="Nothing matches" />
          ) : (
            <LedgerTable
              rows={shown.slice(0, limit)}
              sort={sort}
              onSort={setSort}
              selected={selected}
              onSelect={setSelected}
              onOpen={setEditing}
            />
          )}
          {shown.length > limit && (
            <button type="button" className="btn btn-block" onClick={() => setLimit((n) => n + PAGE * 2)}>
              Show more ({shown.length - limit} not shown yet)
            </button>
          )}
        </div>
      )}
      {editing && (
        <LedgerEdit
          key={editing.tx_id}
          // The freshest copy of the row (an Undo from the toast reloads the list under the drawer).
          tx={all.find((t) => t.tx_id === editing.tx_id) ?? editing}
          onClose={() => setEditing(null)}
          onChanged={data.reload}
        />
      )}
    </section>
  );
}
