// After "always for this merchant": a rule now exists; offer to re-file the merchant's earlier rows
// in one bulk edit (one ledger entry, undoable from Activity).
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import { useApp } from "../../lib/app";
import { categoryLabel, currentMonth, money, shiftMonth, txWhen } from "../../lib/format";
import { useApi } from "../../lib/useApi";
import { Loading } from "../States";
import { ErrorNotice } from "../States";
import { useAction } from "../useAction";

interface Props {
  company: string;
  category: string;
  exceptId: string;
  onDone: () => void;
}

export function MerchantOffer({ company, category, exceptId, onDone }: Props) {
  const { config, categories } = useApp();
  const now = currentMonth(config.timezone);
  const earlier = useApi(
    () =>
      unwrap(
        api.GET("/api/v1/transactions/search", {
          params: { query: { from: shiftMonth(now, -23), to: now, company } },
        }),
      ),
    `${company}|${category}`,
  );
  const { busy, error, run } = useAction();
  const [done, setDone] = useState<number | null>(null);
  const rows = (earlier.data?.transactions ?? []).filter(
    (t) =>
      t.tx_id !== exceptId &&
      (t.company ?? "").toLowerCase() === company.toLowerCase() &&
      (t.category ?? "").toLowerCase() !== category.toLowerCase(),
  );
  const apply = () =>
    run(async () => {
      const res = await unwrap(
        api.PATCH("/api/v1/transactions/bulk", {
          body: {
            updates: rows.map((t) => ({
              forwarded_to: t.forwarded_to,
              date_file_name: t.date_file_name,
              category,
            })),
            source: "manual_bulk",
          },
        }),
      );
      setDone(res.succeeded);
      onDone();
    }, "Earlier transactions re-filed");
  return (
    <div className="notice notice-ok" data-testid="merchant-offer">
      <p>
        <strong>Rule saved:</strong> {company} is now always {category}.
      </p>
      {earlier.loading && !earlier.data && <Loading rows={1} />}
      {done !== null ? (
        <p data-testid="merchant-offer-done">
          {done} earlier transactions moved to {category}. Undo from Activity if that was too much.
        </p>
      ) : (
        earlier.data &&
        (rows.length === 0 ? (
          <p className="small">No earlier {company} transactions sit in another category.</p>
        ) : (
          <>
            <p className="small">
              {rows.length} earlier {company} {rows.length === 1 ? "transaction is" : "transactions are"}{" "}
              filed elsewhere (for example{" "}
              {rows
                .slice(0, 2)
                .map(
                  (t) =>
                    `${txWhen(t.date).date} ${money(t.amount)} in ${categoryLabel(t.category, categories)}`,
                )
                .join(", ")}
              ).
            </p>
            <button type="button" className="btn btn-small btn-primary" disabled={busy} onClick={apply}>
              Move those {rows.length} to {category} too
            </button>
          </>
        ))
      )}
      <ErrorNotice error={error ?? earlier.error} />
    </div>
  );
}
