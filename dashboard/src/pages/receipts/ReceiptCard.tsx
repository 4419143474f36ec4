// One unfiled receipt in the tray: read it with AI (when allowed), find its transaction, link it.
import { useState } from "react";
import { AiButton, type AiReadiness } from "../../components/AiGate";
import { ErrorNotice } from "../../components/States";
import { useToast } from "../../components/Toast";
import { useAction } from "../../components/useAction";
import { dayLabel, money } from "../../lib/format";
import { type Attachment, type Candidates, candidates, link, parse, parsedFacts, remove } from "./api";
import { Thumb } from "./Thumb";

const TIERS: Record<number, string> = { 1: "Exact", 2: "Amount", 3: "With tip" };

interface Props {
  a: Attachment;
  /** Whether AI receipt reading can run (the page shows why not, once, above the tray). */
  ai: AiReadiness | undefined;
  canWrite: boolean;
  onChanged: () => void;
}

export function ReceiptCard({ a, ai, canWrite, onChanged }: Props) {
  const initial = parsedFacts(a);
  const [total, setTotal] = useState(initial.total?.toFixed(2) ?? "");
  const [date, setDate] = useState(initial.date ?? "");
  const [merchant, setMerchant] = useState(initial.merchant ?? "");
  const [found, setFound] = useState<Candidates | null>(null);
  const { busy, error, run } = useAction();
  const notify = useToast();

  const find = () =>
    run(async () => {
      const res = await candidates(a.id, {
        total: total ? Number(total) : undefined,
        date: date || undefined,
        merchant: merchant || undefined,
      });
      setFound(res);
      if (res.auto_linked) {
        const c = res.candidates[0];
        notify(c ? `Linked automatically to ${c.company}` : "Linked automatically");
        onChanged();
      }
    });
  const read = () =>
    run(async () => {
      const parsed = parsedFacts(await parse(a.id));
      setTotal(parsed.total?.toFixed(2) ?? "");
      setDate(parsed.date ?? "");
      setMerchant(parsed.merchant ?? "");
    }, "Receipt read");
  const pick = (txId: string) =>
    run(async () => {
      await link(a.id, txId);
      onChanged();
    }, "Receipt linked");
  const ready = total !== "" && Number(total) > 0 && /^\d{4}-\d{2}-\d{2}$/.test(date);

  return (
    <article
      className="card receipt-card"
      data-testid="receipt-card"
      aria-label={`Receipt ${a.original_filename}`}
    >
      <div className="receipt-head">
        <Thumb a={a} />
        <div>
          <p className="receipt-name">{a.original_filename}</p>
          <p className="muted small">
            {a.parse_status === "parsed"
              ? "Read by AI"
              : a.parse_status === "failed"
                ? "AI could not read it"
                : "Not read"}
            {a.parse_error ? `: ${a.parse_error}` : ""}
          </p>
        </div>
      </div>
      <div className="receipt-facts">
        <label>
          Total
          <input
            inputMode="decimal"
            value={total}
            onChange={(e) => setTotal(e.target.value)}
            placeholder="0.00"
          />
        </label>
        <label>
          Date
          <input type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </label>
        <label>
          Merchant
          <input value={merchant} onChange={(e) => setMerchant(e.target.value)} placeholder="optional" />
        </label>
      </div>
      <div className="receipt-actions">
        <button type="button" className="btn btn-small btn-primary" disabled={busy || !ready} onClick={find}>
          Find matches
        </button>
        {canWrite && (
          <AiButton action="receipt_reading" r={ai} className="btn btn-small" disabled={busy} onClick={read}>
            Read with AI
          </AiButton>
        )}
        {canWrite && (
          <button
            type="button"
            className="btn btn-small btn-danger-quiet"
            disabled={busy}
            onClick={() =>
              run(async () => {
                await remove(a.id);
                onChanged();
              }, "Receipt deleted")
            }
          >
            Delete
          </button>
        )}
      </div>
      <ErrorNotice error={error} />
      {found && found.candidates.length === 0 && (
        <p className="muted small" data-testid="no-candidates">
          No transaction matches. The receipt stays here; nothing is created from it.
        </p>
      )}
      {found && found.candidates.length > 0 && (
        <ul className="candidate-list" aria-label="Matching transactions">
          {found.candidates.map((c) => (
            <li
              key={c.tx_id}
              className={`candidate${c.already_has_receipt ? " demoted" : ""}`}
              data-testid="candidate"
            >
              <span className="tier">{TIERS[c.tier] ?? `T${c.tier}`}</span>
              <div>
                <strong>{c.company}</strong> {money(c.amount)}
                <div className="muted small">
                  {dayLabel(c.date)}
                  {c.already_has_receipt ? " · has a receipt" : ""}
                </div>
              </div>
              {canWrite && (
                <button type="button" className="btn btn-small" disabled={busy} onClick={() => pick(c.tx_id)}>
                  Link
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {found?.auto_link_candidate && !found.auto_linked && (
        <p className="muted small">Exactly one exact match: it would be linked automatically.</p>
      )}
    </article>
  );
}
