// The transaction drawer's tax section: where this purchase stands in its year's tax pack, and a
// way to claim it on a line by hand, leave it out, or hand it back to the category mapping.
// Read only when opened (the year's pack is computed for it), and only while tax tracking is on.
import { useState } from "react";
import type { Transaction } from "../../api/types";
import { OnDemand } from "../../components/OnDemand";
import { ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { SPENDING_TYPES } from "../../lib/format";
import { useApi } from "../../lib/useApi";
import { clearOverride, exclude, includeIn, loadLineOptions, loadPack, type TaxPack } from "./api";

type Standing =
  | { kind: "claimed"; key: string; label: string; manual: boolean }
  | { kind: "excluded"; key: string; label: string }
  | { kind: "none" };

function standing(pack: TaxPack, txId: string): Standing {
  for (const line of pack.lines) {
    const row = line.transactions.find((r) => r.tx_id === txId);
    if (row) return { kind: "claimed", key: line.key, label: line.label, manual: row.manual };
    if ((line.excluded_transactions ?? []).some((r) => r.tx_id === txId))
      return { kind: "excluded", key: line.key, label: line.label };
  }
  return { kind: "none" };
}

export function TxTaxClaim({ tx }: { tx: Transaction }) {
  const { config } = useApp();
  if (!config.tax_tracking_enabled || !SPENDING_TYPES.has(tx.transaction_type ?? "") || tx.deleted_at)
    return null;
  return (
    <OnDemand className="drawer-section" testId="tx-tax" title={<h3 className="inline-heading">Tax pack</h3>}>
      {() => <TaxClaimBody tx={tx} />}
    </OnDemand>
  );
}

function TaxClaimBody({ tx }: { tx: Transaction }) {
  const { canWrite } = useApp();
  // The filing key starts with the local calendar date (YYYY.MM.DD_…): the pack's year, in the journal's zone.
  const year = Number(tx.date_file_name.slice(0, 4));
  const data = useApi(() => Promise.all([loadPack(year), loadLineOptions()]), `${tx.tx_id}|${year}`);
  const { busy, error, run } = useAction();
  const [pick, setPick] = useState("");
  if (!data.data)
    return data.error ? <ErrorNotice error={data.error} onRetry={data.reload} /> : <Loading rows={2} />;
  const [pack, { lines }] = data.data;
  const now = standing(pack, tx.tx_id);
  // SPEC: an include lands on its target line only when the category is mapped to a line; an
  // unmapped category's include always lands in Other claimable, so that is all it is offered.
  const cat = (tx.category ?? "").toLowerCase();
  const mapped = pack.lines.some(
    (l) => l.key !== "other" && l.categories.some((c) => c.toLowerCase() === cat),
  );
  const target = pick || (now.kind === "claimed" ? now.key : (lines[0]?.key ?? ""));
  const act = (fn: () => Promise<unknown>, done: string) =>
    void run(async () => {
      await fn();
      data.reload();
    }, done);
  const off = !canWrite || busy;
  return (
    <>
      <p data-testid="tx-tax-standing">
        {now.kind === "claimed" &&
          `Claimed on ${now.label} for ${year} (${now.manual ? "added by you" : "by its category"}).`}
        {now.kind === "excluded" && `Left out of ${now.label} for ${year}, by you.`}
        {now.kind === "none" && `Not in the ${year} tax pack.`}
      </p>
      <div className="inline wrap">
        {mapped ? (
          <>
            <select
              value={target}
              onChange={(e) => setPick(e.target.value)}
              disabled={off}
              aria-label="Tax line"
            >
              {lines.map((l) => (
                <option key={l.key} value={l.key}>
                  {l.label}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="btn"
              disabled={off || !target || (now.kind === "claimed" && now.key === target)}
              onClick={() => act(() => includeIn(tx.tx_id, target), "Claimed on the tax line")}
            >
              {now.kind === "claimed" ? "Move" : "Claim"}
            </button>
          </>
        ) : (
          now.kind === "none" && (
            <button
              type="button"
              className="btn"
              disabled={off}
              onClick={() => act(() => includeIn(tx.tx_id, "other"), "Claimed as Other claimable")}
            >
              Claim as Other claimable
            </button>
          )
        )}
        {now.kind === "claimed" && !now.manual && (
          <button
            type="button"
            className="btn"
            disabled={off}
            onClick={() => act(() => exclude(tx.tx_id), "Left out of the tax pack")}
          >
            Leave out
          </button>
        )}
        {(now.kind === "excluded" || (now.kind === "claimed" && now.manual)) && (
          <button
            type="button"
            className="btn"
            disabled={off}
            onClick={() => act(() => clearOverride(tx.tx_id), "Back to automatic")}
          >
            Back to automatic
          </button>
        )}
      </div>
      <ErrorNotice error={error} />
    </>
  );
}
