// One statement under review: balance check, the share alerts caught, per-row and bulk actions,
// import (one undoable activity entry), reparse, download and delete.
import { type ReactNode, useState } from "react";
import { accountTypeLabel, count } from "../../lib/format";
import { API_BASE, api, unwrap } from "../../api/client";
import { ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { Link, navigate } from "../../lib/router";
import { useApi } from "../../lib/useApi";
import { CsvMappingForm } from "./CsvMappingForm";
import { LayoutTeacher } from "./LayoutTeacher";
import { type RowEdit, RowTable } from "./RowTable";
import {
  type ImportResult,
  type RowAction,
  STATUS_LABEL,
  type StatementDetail,
  type StatementRow,
} from "./types";

/**
 * How a CSV's signed amounts were read (as printed, or as a card's: purchases printed positive are
 * money out) and why; one click reads the file the other way and remembers it for this header.
 */
function SignNotice({ s, canWrite, onDone }: { s: StatementDetail; canWrite: boolean; onDone: () => void }) {
  const { busy, error, run } = useAction();
  const state = s.csv_mapping!;
  const sign = state.sign;
  if (!sign || state.mapping.amount === null || (!sign.card && !sign.weak)) return null;
  const flip = () =>
    run(async () => {
      const negative_is = state.mapping.negative_is === "deposit" ? "withdrawal" : "deposit";
      await unwrap(
        api.PUT("/api/v1/statements/{statement_id}/csv-mapping", {
          params: { path: { statement_id: s.id } },
          body: { institution: s.institution || "Other", mapping: { ...state.mapping, negative_is } },
        }),
      );
      onDone();
    }, "Read the other way; later files with these columns are read the same way");
  return (
    <div className={`notice ${sign.weak ? "notice-warn" : ""}`} role="note" data-testid="sign-reading">
      <p>
        <strong>
          {sign.card
            ? "Read as a card: positive amounts are purchases (money out)."
            : "Read as printed: positive amounts are money in."}
        </strong>{" "}
        Because {sign.because}.
      </p>
      {canWrite && (
        <button
          type="button"
          className="btn btn-small"
          disabled={busy}
          onClick={flip}
          data-testid="sign-flip"
        >
          {sign.card
            ? "Read as printed instead (positive is money in)"
            : "Read as a card instead (positive is money out)"}
        </button>
      )}
      <ErrorNotice error={error} />
    </div>
  );
}

export function StatementReview({ id, accounts }: { id: string; accounts?: ReactNode }) {
  const { canWrite, categories } = useApp();
  const stmt = useApi(
    () => unwrap(api.GET("/api/v1/statements/{statement_id}", { params: { path: { statement_id: id } } })),
    `statement:${id}`,
  );
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [bulk, setBulk] = useState<RowAction>("skip");
  const [outcome, setOutcome] = useState<ImportResult | null>(null);
  const { busy, error, run } = useAction();
  const path = { statement_id: id };

  const edit = (row: StatementRow, e: RowEdit) =>
    run(async () => {
      await unwrap(
        api.PATCH("/api/v1/statements/{statement_id}/transactions/{tx_index}", {
          params: { path: { ...path, tx_index: String(row.tx_index) } },
          body: e,
        }),
      );
      stmt.reload();
    });
  const applyBulk = () =>
    run(
      async () => {
        const updates = [...selected].map((tx_index) => ({ tx_index, action: bulk }));
        await unwrap(
          api.PATCH("/api/v1/statements/{statement_id}/transactions", {
            params: { path },
            body: { updates },
          }),
        );
        setSelected(new Set());
        stmt.reload();
      },
      `${count(selected.size, "row")} set to ${bulk}`,
    );
  const doImport = () =>
    run(async () => {
      setOutcome(
        await unwrap(api.POST("/api/v1/statements/import", { body: { statement_id: id, actions: [] } })),
      );
      stmt.reload();
    });
  const reparse = () =>
    run(async () => {
      await unwrap(api.POST("/api/v1/statements/{statement_id}/reparse", { params: { path } }));
      stmt.reload();
    }, "Parsed again; your edits were kept");
  const remove = () => {
    if (!window.confirm("Delete this statement and its review? Imported transactions stay in the journal."))
      return;
    run(async () => {
      await unwrap(api.DELETE("/api/v1/statements/{statement_id}", { params: { path } }));
      navigate("/statements");
    }, "Statement deleted");
  };

  const s = stmt.data;
  if (!s)
    return (
      <section className="page">
        {stmt.loading ? <Loading /> : <ErrorNotice error={stmt.error} onRetry={stmt.reload} />}
      </section>
    );
  const open = s.transactions.filter((r) => r.action_result === null);
  // Without any balance the rows are unchecked, not wrong: say so without alarm.
  const unchecked = !s.balance_check.checked;
  // A PDF no rule read is kept with no rows: the review says so and opens the marking form.
  const noRows = s.file_kind === "pdf" && s.total_parsed === 0;
  const toImport = open.filter((r) => r.action === "import").length;
  const toEnrich = open.filter((r) => r.action === "enrich" || r.action === "update").length;
  return (
    <section aria-labelledby="statement-h" className="page">
      <p className="small">
        <Link to="/statements">← All statements</Link>
      </p>
      {accounts}
      <div className="page-head">
        <h1 id="statement-h">{s.filename}</h1>
        <span className={`tag ${s.status === "complete" ? "tag-ok" : ""}`} data-testid="statement-status">
          {STATUS_LABEL[s.status]}
        </span>
      </div>
      <p className="muted">
        {s.institution} · {accountTypeLabel(s.account_type)} · {s.period_start ?? "?"} – {s.period_end ?? "?"}
      </p>
      <p className="notice" data-testid="capture">
        Alerts caught <strong>{Math.round(s.capture.rate * 100)}%</strong> of this statement (
        {s.capture.caught} of {s.capture.total} rows).
      </p>
      {s.csv_mapping && !s.csv_mapping.confirmed && (
        <SignNotice s={s} canWrite={canWrite} onDone={stmt.reload} />
      )}
      {s.csv_mapping && !s.csv_mapping.confirmed && canWrite && <CsvMappingForm s={s} onDone={stmt.reload} />}
      {s.file_kind === "pdf" && canWrite && (s.total_parsed === 0 || !s.balance_check.ok) && (
        <LayoutTeacher id={id} institution={s.institution} onDone={stmt.reload} />
      )}
      {(!s.balance_check.ok || s.balance_check.warnings.length > 0) && (
        <div
          className={`notice ${unchecked ? "" : "notice-warn"}`}
          role={unchecked ? "note" : "alert"}
          data-testid="balance-warnings"
        >
          <strong>
            {noRows
              ? "No rows found in this PDF: mark its columns below."
              : s.balance_check.ok
                ? "Check before importing."
                : unchecked
                  ? "This file carries no balances to check the rows against."
                  : "The balances do not check out — review before importing."}
          </strong>
          <ul>
            {s.balance_check.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      )}
      <div className="stats">
        {[
          ["New", s.new_count],
          ["Matched", s.matched_count],
          ["Ambiguous", s.ambiguous_count],
          ["Suspected duplicates", s.suspected_duplicate_count],
          ["Imported before", s.previously_imported_count],
        ].map(([label, n]) => (
          <div className="stat" key={label}>
            <div className="stat-label">{label}</div>
            <div className="stat-value">{n}</div>
          </div>
        ))}
      </div>
      <div className="row-gap wrap actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={!canWrite || busy || open.length === 0}
          onClick={doImport}
          data-testid="import-btn"
        >
          Import {toImport} new{toEnrich ? `, enrich ${toEnrich}` : ""}
        </button>
        <button type="button" className="btn" disabled={!canWrite || busy} onClick={reparse}>
          Reparse
        </button>
        <a className="btn" href={`${API_BASE}/api/v1/statements/${encodeURIComponent(id)}/download`}>
          Download
        </a>
        <button type="button" className="btn btn-danger-quiet" disabled={!canWrite || busy} onClick={remove}>
          Delete
        </button>
      </div>
      <ErrorNotice error={error} />
      {outcome && (
        <div className="card outcome outcome-ok" role="status" data-testid="import-outcome">
          <h2>Import done</h2>
          <p>
            {outcome.imported} imported · {outcome.enriched} enriched · {outcome.updated} updated ·{" "}
            {outcome.skipped} skipped
            {outcome.duplicates ? ` · ${outcome.duplicates} already there` : ""}.{" "}
            <Link to="/activity">Undo from the activity page</Link>
          </p>
        </div>
      )}
      {selected.size > 0 && (
        <div className="bulk-bar" data-testid="bulk-bar">
          <span>{selected.size} selected</span>
          <select
            aria-label="Action for the selected rows"
            value={bulk}
            onChange={(e) => setBulk(e.target.value as RowAction)}
          >
            {(["import", "skip", "enrich", "update"] as const).map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
          <button type="button" className="btn btn-small" onClick={applyBulk} disabled={busy}>
            Apply
          </button>
        </div>
      )}
      <RowTable
        rows={s.transactions}
        categories={categories}
        canWrite={canWrite}
        selected={selected}
        onSelect={(i, on) =>
          setSelected((prev) => {
            const next = new Set(prev);
            on ? next.add(i) : next.delete(i);
            return next;
          })
        }
        onEdit={edit}
      />
    </section>
  );
}
