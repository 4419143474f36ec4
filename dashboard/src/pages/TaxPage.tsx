// Tax: the year's claim lines with totals and evidence coverage, include/exclude overrides, the
// missing receipt attached in place, and the accountant's zip. Hidden when tax tracking is off.
import { Money } from "../components/Money";
import { useYearParam, YearPicker } from "../components/money-pages/YearPicker";
import { Empty, ErrorNotice, Loading } from "../components/States";
import { useAction } from "../components/useAction";
import { useApp } from "../lib/app";
import { Link } from "../lib/router";
import { useApi } from "../lib/useApi";
import { clearOverride, exclude, includeIn, loadLineOptions, loadPack, type TaxRow } from "./tax/api";
import { TaxDownload } from "./tax/TaxDownload";
import { TaxLineCard } from "./tax/TaxLineCard";
import { TaxMappingEditor } from "./tax/TaxMappingEditor";
import type { RowActions } from "./tax/TaxRowItem";
import "./receipts/receipts.css";
import "./tax/tax.css";

export function TaxPage() {
  const { config } = useApp();
  if (!config.tax_tracking_enabled)
    return (
      <section aria-labelledby="tax-h">
        <h1 id="tax-h">Tax pack</h1>
        <Empty title="Tax tracking is off">
          Turn on <em>Tax tracking</em> in <Link to="/settings">Settings</Link> to collect claimable items.
        </Empty>
      </section>
    );
  return <TaxYear />;
}

function TaxYear() {
  const { canWrite, config } = useApp();
  const { year, setYear } = useYearParam();
  const pack = useApi(() => loadPack(year), `tax:${year}`);
  const options = useApi(loadLineOptions, "tax-lines");
  const { busy, error, run } = useAction();
  const write = (fn: () => Promise<unknown>, done: string) =>
    run(async () => {
      await fn();
      pack.reload();
    }, done);
  const act: RowActions = {
    exclude: (r: TaxRow) => write(() => exclude(r.tx_id), `${r.company} excluded`),
    clear: (r: TaxRow) => write(() => clearOverride(r.tx_id), `${r.company} restored`),
    move: (r: TaxRow, key: string) => write(() => includeIn(r.tx_id, key), `${r.company} moved`),
    attached: (_r: TaxRow, upload) => write(upload, "Receipt attached"),
  };
  const demo = config.demo_mode;
  return (
    <section aria-labelledby="tax-h">
      <div className="page-head">
        <h1 id="tax-h">Tax pack</h1>
        <YearPicker value={year} onChange={setYear} />
      </div>
      <div className="card tax-summary">
        <div className="stat">
          <span className="stat-label">Claimable in {year}</span>
          {pack.data ? (
            <Money value={pack.data.grand_total} className="stat-value" />
          ) : (
            <span className="stat-value">—</span>
          )}
        </div>
        <TaxDownload year={year} demo={demo} />
      </div>
      <ErrorNotice error={pack.error ?? error} onRetry={pack.reload} />
      {!pack.data && pack.loading && <Loading rows={7} />}
      {pack.data?.lines.map((l) => (
        <TaxLineCard
          key={l.key}
          line={l}
          options={options.data?.lines ?? []}
          canWrite={canWrite && !demo}
          busy={busy}
          act={act}
        />
      ))}
      <TaxMappingEditor
        onSaved={() => {
          pack.reload();
          options.reload();
        }}
      />
    </section>
  );
}
