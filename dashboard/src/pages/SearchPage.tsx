import { useState } from "react";
import { api, unwrap } from "../api/client";
import type { operations } from "../api/schema";
import type { SearchResult } from "../api/types";
import { Bars } from "../components/Bars";
import { Money } from "../components/Money";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { TxDrawer } from "../components/TxDrawer";
import { TxRow } from "../components/TxRow";
import { useAction } from "../components/useAction";
import { useApp } from "../lib/app";
import { saveBlob } from "../lib/download";
import { categoryLabel, currentMonth, shiftMonth } from "../lib/format";
import { setQuery, useLocation } from "../lib/router";
import { useApi } from "../lib/useApi";
import { FILTER_KEYS, type Filters, SearchForm } from "./SearchForm";

type SearchQuery = operations["searchTransactions"]["parameters"]["query"];

function toQuery(f: Filters): SearchQuery {
  const num = (v?: string) => (v ? Number(v) : undefined);
  return {
    from: f.from ?? "",
    to: f.to ?? "",
    q: f.q || undefined,
    category: f.category || undefined,
    institution: f.institution || undefined,
    company: f.company || undefined,
    type: f.type || undefined,
    min_amount: num(f.min_amount),
    max_amount: num(f.max_amount),
    include_ignored: f.include_ignored === "true" ? true : undefined,
    include_deleted: f.include_deleted === "true" ? true : undefined,
  };
}

export function SearchPage() {
  const { config } = useApp();
  const { query } = useLocation();
  const [open, setOpen] = useState<string | null>(null);
  const filters: Filters = {};
  for (const k of FILTER_KEYS) filters[k] = query.get(k) ?? undefined;
  const active = !!filters.from && !!filters.to;
  const now = currentMonth(config.timezone);
  const initial = active ? filters : { from: shiftMonth(now, -2), to: now };
  const key = active ? query.toString() : "";
  const results = useApi<SearchResult | null>(
    () =>
      active
        ? unwrap(api.GET("/api/v1/transactions/search", { params: { query: toQuery(filters) } }))
        : Promise.resolve(null),
    key,
  );
  const exporter = useAction();
  const exportCsv = () =>
    exporter.run(async () => {
      const r = await api.GET("/api/v1/transactions/export", {
        params: { query: toQuery(filters) },
        parseAs: "blob",
      });
      const blob = await unwrap(Promise.resolve(r));
      saveBlob(
        blob as Blob,
        r.response.headers.get("content-disposition"),
        `transactions_${filters.from}_${filters.to}.csv`,
      );
    }, "CSV downloaded");
  const r = results.data;
  return (
    <section aria-labelledby="search-h">
      <div className="page-head">
        <h1 id="search-h">Search</h1>
      </div>
      <SearchForm key={key} initial={initial} onSearch={(f) => setQuery(f)} />
      <ErrorNotice error={results.error} onRetry={results.reload} />
      {!active && (
        <Empty title="Pick a range and filters, then search">Results and a CSV export appear here.</Empty>
      )}
      {active && results.loading && !r && <Loading rows={4} />}
      {r && (
        <>
          <SearchSummary r={r} onExport={exportCsv} exporting={exporter.busy} />
          <ErrorNotice error={exporter.error} />
          {r.transactions.length === 0 ? (
            <Empty title="No transactions match">Try a wider range or fewer filters.</Empty>
          ) : (
            <ul className="card tx-list" data-testid="search-results">
              {r.transactions.map((t) => (
                <TxRow key={t.tx_id} tx={t} onOpen={setOpen} showDate />
              ))}
            </ul>
          )}
        </>
      )}
      {open && <TxDrawer txId={open} onClose={() => setOpen(null)} onChanged={results.reload} />}
    </section>
  );
}

function SearchSummary({
  r,
  onExport,
  exporting,
}: {
  r: SearchResult;
  onExport: () => void;
  exporting: boolean;
}) {
  const { categories } = useApp();
  const s = r.summary;
  const bars = Object.entries(s.by_category)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([k, v]) => ({ key: k, label: categoryLabel(k, categories), value: v }));
  return (
    <div className="card" data-testid="search-summary">
      <div className="row-between wrap search-summary-head">
        <div className="stats stats-3 flat">
          <div className="stat">
            <span className="stat-label">Matches</span>
            <span className="stat-value">{s.total_count}</span>
            <span className="stat-sub">over {s.months_queried} months</span>
          </div>
          <div className="stat">
            <span className="stat-label">Total</span>
            <Money value={s.total_amount} className="stat-value" />
          </div>
          <div className="stat">
            <span className="stat-label">Average</span>
            <Money value={s.avg_amount} className="stat-value" />
          </div>
        </div>
        <button type="button" className="btn" onClick={onExport} disabled={exporting}>
          {exporting ? "Exporting…" : "Export CSV"}
        </button>
      </div>
      {r.capped && (
        <p className="notice">
          Showing the first {r.transactions.length} of {r.total_matching}. Narrow the filters to see the rest,
          or export them all.
        </p>
      )}
      {bars.length > 1 && <Bars items={bars} />}
    </div>
  );
}
