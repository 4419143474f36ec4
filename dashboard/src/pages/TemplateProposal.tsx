import { useEffect, useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { ErrorNotice } from "../components/States";
import { useAction } from "../components/useAction";
import { useApp } from "../lib/app";
import { money, typeLabel } from "../lib/format";

type Proposal = components["schemas"]["AlertTemplateProposal"];
export type ProposedValues = NonNullable<Proposal["proposal"]>;

const amountOf = (p: ProposedValues) =>
  p.currency ? `${p.amount.toFixed(2)} ${p.currency}` : money(p.amount);

/**
 * The model's reading of a quarantined alert (issue 37), offered as a template: asked once the
 * panel opens (the server sends nothing without a provider and the person's consent). Confirm is
 * the ordinary resolve with the proposed values; Edit puts them in the form; Dismiss hides it.
 * Nothing is saved until the person confirms.
 */
export function TemplateProposal({
  failureId,
  onEdit,
  onResolved,
}: {
  failureId: string;
  onEdit: (p: ProposedValues) => void;
  onResolved: () => void;
}) {
  const { canWrite } = useApp();
  const [got, setGot] = useState<Proposal | "asking" | null>("asking");
  const [hidden, setHidden] = useState(false);
  const action = useAction();
  useEffect(() => {
    let live = true;
    setGot("asking");
    setHidden(false);
    unwrap(
      api.GET("/api/v1/parse-failures/{failure_id}/template-proposal", {
        params: { path: { failure_id: failureId } },
      }),
    )
      .catch(() => null)
      .then((p) => {
        if (live) setGot(p);
      });
    return () => {
      live = false;
    };
  }, [failureId]);
  if (hidden || got === null) return null;
  if (got === "asking")
    return (
      <p className="muted small proposal-row" data-testid="template-proposal-asking">
        Asking the model to read this alert…
      </p>
    );
  if (!got.asked) return null;
  const p = got.proposal;
  if (!p)
    return (
      <p className="notice notice-warn proposal-row" role="status" data-testid="template-proposal-refused">
        {got.reason}
      </p>
    );
  const confirm = () =>
    void action.run(
      async () => {
        const out = await unwrap(
          api.POST("/api/v1/parse-failures/{failure_id}/resolve", {
            params: { path: { failure_id: failureId } },
            body: {
              date: p.date,
              time: p.time,
              amount: p.amount,
              company: p.company,
              institution: p.institution,
              transaction_type: p.transaction_type,
              learn_template: true,
              proposed: true,
            },
          }),
        );
        onResolved();
        return out;
      },
      (out) =>
        `Confirmed: ${p.company} ${amountOf(p)} was added.${
          out.template_name
            ? ` Future emails like this one will be read as "${out.template_name}".`
            : out.template_reason
              ? ` No template was learned: ${out.template_reason}.`
              : ""
        }`,
    );
  return (
    <section
      className="notice notice-ok proposal proposal-row"
      aria-label="The model's reading"
      data-testid="template-proposal"
    >
      <p>
        <strong>Read by the model ({p.model}).</strong> Every value below is printed in the email.{" "}
        {p.template_name
          ? `Confirming saves the transaction and teaches “${p.template_name}”: the next alerts like this one are read without the model.`
          : `Confirming saves the transaction; no template would be learned: ${p.template_reason}.`}
      </p>
      <dl className="facts">
        <div>
          <dt>Date</dt>
          <dd>
            {p.date}
            {p.time ? ` ${p.time}` : ""}
          </dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd>{amountOf(p)}</dd>
        </div>
        <div>
          <dt>Merchant</dt>
          <dd>{p.company}</dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>{typeLabel(p.transaction_type)}</dd>
        </div>
        <div>
          <dt>Bank</dt>
          <dd>{p.institution}</dd>
        </div>
      </dl>
      {p.note && <p className="small">{p.note}</p>}
      <ErrorNotice error={action.error} />
      <div className="inline proposal-actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={!canWrite || action.busy}
          onClick={confirm}
          data-testid="template-proposal-confirm"
        >
          Confirm
        </button>
        <button
          type="button"
          className="btn"
          aria-label="Edit the model's reading in the form"
          onClick={() => {
            onEdit(p);
            setHidden(true);
          }}
        >
          Edit
        </button>
        <button
          type="button"
          className="btn"
          aria-label="Dismiss the model's reading (the email stays in Needs review)"
          onClick={() => setHidden(true)}
        >
          Dismiss
        </button>
      </div>
    </section>
  );
}
