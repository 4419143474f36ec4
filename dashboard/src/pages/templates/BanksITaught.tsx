// Rules → "Banks I taught": alert templates learned from emails resolved by hand (issue 18), each
// with its masked example, how many emails it has read and when; rename, delete (undoable).
import { RenameDelete } from "../../components/RenameDelete";
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { Empty, ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { useApi } from "../../lib/useApi";

type Template = components["schemas"]["AlertTemplate"];
type Offer = components["schemas"]["AlertTemplateOffer"];

export function BanksITaught() {
  const list = useApi(() => unwrap(api.GET("/api/v1/templates")), "templates");
  const items = list.data?.templates;
  return (
    <div className="card" data-testid="rules-templates">
      <h2>Banks I taught {items && <span className="count">{items.length}</span>}</h2>
      <p className="muted small">
        Resolving an email of a bank the journal cannot read teaches it that bank's wording. A changed wording
        is sent to Needs review again, never guessed.
      </p>
      <ErrorNotice error={list.error} onRetry={list.reload} />
      {!items && list.loading && <Loading rows={2} />}
      {items && items.length === 0 && <Empty title="None yet" />}
      <ul className="plain-list rule-list">
        {(items ?? []).map((t) => (
          <TemplateRow key={t.id} t={t} reload={list.reload} />
        ))}
      </ul>
      <Offers onTaught={list.reload} />
    </div>
  );
}

/** Alerts the AI read for a bank no template reads yet: one click teaches the journal that bank. */
function Offers({ onTaught }: { onTaught: () => void }) {
  const { canWrite } = useApp();
  const offers = useApi(() => unwrap(api.GET("/api/v1/templates/offers")), "template-offers");
  const action = useAction();
  const teach = (o: Offer) =>
    void action.run(async () => {
      await unwrap(
        api.POST("/api/v1/templates/offers/{tx_id}/accept", {
          params: { path: { tx_id: o.tx_id } },
          body: { institution: o.suggested_institution },
        }),
      );
      offers.reload();
      onTaught();
    }, `The journal now reads ${o.sender_domain} alerts`);
  const list = offers.data?.offers ?? [];
  if (list.length === 0) return null;
  return (
    <div data-testid="template-offers">
      <h3 className="small-h">Read by AI, ready to learn</h3>
      <ErrorNotice error={action.error} />
      <ul className="plain-list rule-list">
        {list.map((o) => (
          <li key={o.tx_id} className="row-between">
            <span className="rule-text">
              <strong>{o.sender_domain}</strong>{" "}
              <span className="muted small">
                {o.company} · {o.amount.toFixed(2)} · {o.transaction_type}
              </span>
              <pre className="email-body small">{o.example}</pre>
            </span>
            <button
              type="button"
              className="btn btn-small"
              disabled={!canWrite || action.busy}
              onClick={() => teach(o)}
            >
              Learn this bank
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function TemplateRow({ t, reload }: { t: Template; reload: () => void }) {
  const { canWrite } = useApp();
  const action = useAction();
  const [name, setName] = useState<string | null>(null);
  const path = { params: { path: { template_id: t.id } } };
  const rename = () =>
    void action.run(async () => {
      await unwrap(
        api.PATCH("/api/v1/templates/{template_id}", { ...path, body: { name: (name ?? "").trim() } }),
      );
      setName(null);
      reload();
    }, "Renamed");
  const remove = () =>
    void action.run(async () => {
      await unwrap(api.DELETE("/api/v1/templates/{template_id}", path));
      reload();
    }, "Deleted");
  const last = t.last_matched_at ? `last ${t.last_matched_at.slice(0, 10)}` : "none yet";
  return (
    <li className="row-between">
      <span className="rule-text">
        {name === null ? (
          <strong>{t.name}</strong>
        ) : (
          <input
            aria-label="Template name"
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        )}{" "}
        <span className="muted small">
          {t.sender_domain} · {t.transaction_type} · read {t.match_count} email(s), {last}
        </span>
        <pre className="email-body small">{t.example}</pre>
        <ErrorNotice error={action.error} />
      </span>
      <RenameDelete
        name={t.name}
        editing={name}
        disabled={!canWrite || action.busy}
        onEdit={() => setName(t.name)}
        onSave={rename}
        onDelete={remove}
      />
    </li>
  );
}
