import { useEffect, useState } from "react";
import { api, unwrap } from "../../api/client";
import { ErrorNotice } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { ago } from "../../lib/format";
import { Link } from "../../lib/router";
import { useApi } from "../../lib/useApi";

type CardNames = Record<string, Record<string, string>>;

/** "MBNA 1234 Sam" lines ↔ the card-name mapping. */
const toLines = (m: CardNames) =>
  Object.entries(m)
    .flatMap(([inst, cards]) => Object.entries(cards).map(([digits, name]) => `${inst} ${digits} ${name}`))
    .join("\n");
function fromLines(text: string): CardNames {
  const out: CardNames = {};
  for (const line of text.split("\n")) {
    const m = /^\s*(.+?)\s+(\d{4})\s+(.+?)\s*$/.exec(line);
    if (!m) continue;
    const cards = out[m[1]!] ?? {};
    cards[m[2]!] = m[3]!;
    out[m[1]!] = cards;
  }
  return out;
}

/** The polled mailbox (IMAP) when one is set up: its last check and how much of its backlog is left. */
function MailboxStatus() {
  const mb = useApi(() => unwrap(api.GET("/api/v1/setup/status")), "setup").data?.mailbox;
  if (!mb?.configured) return null;
  return (
    <p className="small" data-testid="mailbox-status">
      Mailbox <code>{mb.address ?? "configured"}</code>
      {mb.folder && <> ({mb.folder})</>}:{" "}
      {mb.last_poll ? `last checked ${ago(mb.last_poll)}` : "not checked yet"}
      {mb.backlog ? (
        <>
          {" "}
          · <strong>{mb.backlog.toLocaleString()} messages left to read</strong> (read in steps, one after
          another)
        </>
      ) : null}
      {mb.last_error && <span className="text-danger"> · last check failed: {mb.last_error}</span>}
    </p>
  );
}

/** Journal currency, own forwarding addresses and card holders (config and /api/v1/card-names). */
export function AlertIntakeSection() {
  const { config, setConfig, canWrite } = useApp();
  const { busy, error, run } = useAction();
  const [currency, setCurrency] = useState(config.journal_currency ?? "CAD");
  const [forwarders, setForwarders] = useState((config.forwarding_addresses ?? []).join("\n"));
  const [cards, setCards] = useState("");
  useEffect(() => {
    unwrap(api.GET("/api/v1/card-names")).then(
      (r) => setCards(toLines(r.mappings)),
      () => undefined,
    );
  }, []);
  const save = () =>
    run(async () => {
      const list = forwarders
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean);
      setConfig(
        await unwrap(
          api.PUT("/api/v1/config", {
            body: { journal_currency: currency.trim().toUpperCase(), forwarding_addresses: list },
          }),
        ),
      );
      const saved = await unwrap(api.PUT("/api/v1/card-names", { body: fromLines(cards) }));
      setCards(toLines(saved.mappings));
    }, "Alert settings saved");
  return (
    <div className="card" id="alerts">
      <h2>Alert emails</h2>
      <p className="muted small">
        Rows printed in another currency, and alerts forwarded by an address not listed here (nor confirmed
        once), wait under <Link to="/review">Needs review</Link> with the reason.
      </p>
      <MailboxStatus />
      <label className="field">
        <span>Journal currency (ISO code)</span>
        <input
          value={currency}
          maxLength={3}
          onChange={(e) => setCurrency(e.target.value)}
          disabled={!canWrite}
          data-testid="journal-currency"
        />
      </label>
      <label className="field">
        <span>Your forwarding addresses (one per line)</span>
        <textarea
          rows={3}
          value={forwarders}
          onChange={(e) => setForwarders(e.target.value)}
          disabled={!canWrite}
          data-testid="forwarding-addresses"
        />
      </label>
      <label className="field">
        <span>Card holders: bank, last four digits, first name (one per line, e.g. "MBNA 1234 Sam")</span>
        <textarea
          rows={3}
          value={cards}
          onChange={(e) => setCards(e.target.value)}
          disabled={!canWrite}
          data-testid="card-names"
        />
      </label>
      <button type="button" className="btn" onClick={save} disabled={!canWrite || busy}>
        Save alert settings
      </button>
      <ErrorNotice error={error} />
    </div>
  );
}
