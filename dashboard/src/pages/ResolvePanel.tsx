import { type FormEvent, useState } from "react";
import { api, unwrap } from "../api/client";
import type { ManualResolve, ParseFailure } from "../api/types";
import { ErrorNotice, Loading } from "../components/States";
import { useToast } from "../components/Toast";
import { useAction } from "../components/useAction";
import { useApp } from "../lib/app";
import { useApi } from "../lib/useApi";

const TYPES: ManualResolve["transaction_type"][] = [
  "purchase",
  "withdrawal",
  "preauth",
  "e-transfer",
  "deposit",
];

function isoDate(emailDate: string | null): string {
  const m = emailDate?.match(/^(\d{2})\/(\d{2})\/(\d{4})/);
  return m ? `${m[3]}-${m[1]}-${m[2]}` : "";
}

/** The original email beside a form to enter its transaction by hand. */
export function ResolvePanel({ failure, onResolved }: { failure: ParseFailure; onResolved: () => void }) {
  const { categories, canWrite } = useApp();
  const detail = useApi(
    () =>
      unwrap(
        api.GET("/api/v1/parse-failures/{failure_id}", { params: { path: { failure_id: failure.id } } }),
      ),
    failure.id,
  );
  const [form, setForm] = useState({
    date: isoDate(failure.email_date),
    amount: "",
    company: "",
    category: "",
    institution: failure.detected_institution ?? "",
    transaction_type: "purchase" as ManualResolve["transaction_type"],
  });
  // Learning is on by default when no built-in parser recognized the sender (issue 18).
  const [learn, setLearn] = useState(failure.detected_institution === null);
  const toast = useToast();
  const { busy, error, run } = useAction();
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [k]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run(async () => {
      const out = await unwrap(
        api.POST("/api/v1/parse-failures/{failure_id}/resolve", {
          params: { path: { failure_id: failure.id } },
          body: {
            date: form.date,
            amount: Number(form.amount),
            company: form.company.trim(),
            category: form.category || null,
            institution: form.institution.trim() || null,
            transaction_type: form.transaction_type,
            learn_template: learn,
          },
        }),
      );
      const learned = out.template_name
        ? ` Future emails like this one will be read as "${out.template_name}".`
        : out.template_reason
          ? ` No template was learned: ${out.template_reason}.`
          : "";
      toast(`Resolved: the transaction was added.${learned}`, "ok");
      onResolved();
    });
  };
  const open = failure.status === "quarantined";
  return (
    <div className="resolve">
      <div className="resolve-email">
        <h3 className="small-h">Original email</h3>
        {detail.loading && !detail.data && <Loading rows={3} />}
        <ErrorNotice error={detail.error} onRetry={detail.reload} />
        {detail.data && <pre className="email-body">{detail.data.body || "(empty body)"}</pre>}
      </div>
      {open && (
        <form className="resolve-form" onSubmit={submit} aria-label="Enter the transaction by hand">
          <h3 className="small-h">Enter it by hand</h3>
          <label className="field">
            <span>Date</span>
            <input type="date" required value={form.date} onChange={set("date")} />
          </label>
          <label className="field">
            <span>Amount</span>
            <input
              type="number"
              required
              min="0.01"
              step="0.01"
              inputMode="decimal"
              value={form.amount}
              onChange={set("amount")}
            />
          </label>
          <label className="field">
            <span>Merchant</span>
            <input required maxLength={500} value={form.company} onChange={set("company")} />
          </label>
          <label className="field">
            <span>Category</span>
            <select value={form.category} onChange={set("category")}>
              <option value="">Let the rules decide</option>
              {categories.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Institution</span>
            <input maxLength={100} value={form.institution} onChange={set("institution")} />
          </label>
          <label className="field">
            <span>Type</span>
            <select value={form.transaction_type} onChange={set("transaction_type")}>
              {TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <label className="check">
            <input type="checkbox" checked={learn} onChange={(e) => setLearn(e.target.checked)} />
            <span>Read future emails like this one</span>
          </label>
          <ErrorNotice error={error} />
          <button type="submit" className="btn btn-primary" disabled={!canWrite || busy}>
            Save transaction
          </button>
        </form>
      )}
    </div>
  );
}
