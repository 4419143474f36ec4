import { type FormEvent, useEffect, useRef, useState } from "react";
import { api, unwrap } from "../api/client";
import { hasCode } from "../api/errors";
import type { ManualResolve, ParseFailure } from "../api/types";
import { ErrorNotice, Loading } from "../components/States";
import { useAction } from "../components/useAction";
import { useApp } from "../lib/app";
import { money, TX_TYPES, typeLabel } from "../lib/format";
import { useApi } from "../lib/useApi";
import { type ProposedValues, TemplateProposal } from "./TemplateProposal";

const TYPES: ManualResolve["transaction_type"][] = TX_TYPES;

/** A resolve refused before saving: the typed values the email does not print, and what it says. */
interface Unseen {
  fields: ("amount" | "date")[];
  suggestion: { amount: number | null; date: string | null } | null;
}

function unseenOf(err: unknown): Unseen | null {
  if (!hasCode(err, "NOT_IN_EMAIL")) return null;
  const list = Array.isArray(err.details?.unseen) ? (err.details.unseen as { field?: unknown }[]) : [];
  const fields = list
    .map((u) => u.field)
    .filter((f): f is "amount" | "date" => f === "amount" || f === "date");
  const suggestion = (err.details?.suggestion ?? null) as Unseen["suggestion"];
  return { fields, suggestion };
}

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
    time: "",
    amount: "",
    company: "",
    category: "",
    institution: failure.detected_institution ?? "",
    transaction_type: "purchase" as ManualResolve["transaction_type"],
  });
  // Learning is on by default when no built-in parser recognized the sender (issue 18).
  const [learn, setLearn] = useState(failure.detected_institution === null);
  // Texts of the email the person marked as changing from alert to alert (issue 27).
  const [varying, setVarying] = useState<string[]>([]);
  const [selection, setSelection] = useState("");
  const bodyRef = useRef<HTMLPreElement>(null);
  // Prefill what the email plainly says (issue 25): only fields the person has not typed in.
  const suggestion = detail.data?.suggestion;
  useEffect(() => {
    if (!suggestion) return;
    setForm((f) => ({
      ...f,
      amount: f.amount || (suggestion.amount !== null ? suggestion.amount.toFixed(2) : ""),
      date: suggestion.date ?? f.date,
      time: f.time || (suggestion.time ?? ""),
      company: f.company || (suggestion.company ?? ""),
    }));
  }, [suggestion]);
  const noteSelection = () => {
    const sel = window.getSelection();
    const inBody = sel?.anchorNode && bodyRef.current?.contains(sel.anchorNode);
    setSelection(inBody ? (sel?.toString().replace(/\s+/g, " ").trim().slice(0, 200) ?? "") : "");
  };
  const markSelection = () => {
    if (selection && !varying.includes(selection)) setVarying([...varying, selection].slice(0, 10));
    setSelection("");
  };
  const open = failure.status === "quarantined";
  const { busy, error, setError, run } = useAction();
  // Set when the server refused the values before saving: the warning shows, and saving again as
  // typed is a deliberate second click.
  const unseen = unseenOf(error);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => {
    if (unseen) setError(null);
    setForm({ ...form, [k]: e.target.value });
  };
  const save = (confirm: boolean) =>
    run(
      async () => {
        const out = await unwrap(
          api.POST("/api/v1/parse-failures/{failure_id}/resolve", {
            params: { path: { failure_id: failure.id } },
            body: {
              date: form.date,
              time: form.time || null,
              amount: Number(form.amount),
              company: form.company.trim(),
              category: form.category || null,
              institution: form.institution.trim() || null,
              transaction_type: form.transaction_type,
              learn_template: learn,
              varying: learn && varying.length ? varying : undefined,
              ...(confirm ? { confirm_not_in_email: true } : {}),
            },
          }),
        );
        onResolved();
        return out;
      },
      (out) => {
        const learned = out.template_note?.startsWith("merged")
          ? ` This wording was added to "${out.template_name}": it now reads both.`
          : out.template_name
            ? ` Future emails like this one will be read as "${out.template_name}".`
            : out.template_reason
              ? ` No template was learned: ${out.template_reason}.`
              : "";
        return `Resolved: ${form.company.trim()} ${money(Number(form.amount))} was added.${learned}`;
      },
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save(false);
  };
  // Edit on the model's reading: its values in the form, to change before saving.
  const editProposal = (p: ProposedValues) => {
    setError(null);
    setLearn(true);
    setForm({
      ...form,
      date: p.date,
      time: p.time ?? "",
      amount: p.amount.toFixed(2),
      company: p.company,
      institution: form.institution || p.institution,
      transaction_type: p.transaction_type,
    });
  };
  return (
    <div className="resolve">
      {open && <TemplateProposal failureId={failure.id} onEdit={editProposal} onResolved={onResolved} />}
      <div className="resolve-email">
        <h3 className="small-h">Original email</h3>
        {detail.loading && !detail.data && <Loading rows={3} />}
        <ErrorNotice error={detail.error} onRetry={detail.reload} />
        {detail.data && (
          <pre className="email-body" ref={bodyRef} onMouseUp={noteSelection} onKeyUp={noteSelection}>
            {detail.data.body || "(empty body)"}
          </pre>
        )}
        {open && learn && (
          <div className="vary">
            <p className="muted small">
              Select words that change from alert to alert (a card name, a city), then mark them: future
              emails are read whatever they say there.
            </p>
            <button type="button" className="btn btn-small" disabled={!selection} onClick={markSelection}>
              {selection ? `Mark “${selection.slice(0, 40)}” as changing` : "Mark selection as changing"}
            </button>
            {varying.length > 0 && (
              <ul className="marks" aria-label="Changes from alert to alert">
                {varying.map((v) => (
                  <li key={v} className="mark">
                    <span className="mark-text">{v}</span>
                    <button
                      type="button"
                      className="mark-x"
                      aria-label={`Unmark ${v}`}
                      onClick={() => setVarying(varying.filter((x) => x !== v))}
                    >
                      ×
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      {open && (
        <form className="resolve-form" onSubmit={submit} aria-label="Enter the transaction by hand">
          <h3 className="small-h">Enter it by hand</h3>
          <div className="resolve-when">
            <label className="field">
              <span>Date</span>
              <input type="date" required value={form.date} onChange={set("date")} />
            </label>
            <label className="field">
              <span>Time</span>
              <input type="time" value={form.time} onChange={set("time")} />
            </label>
          </div>
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
                <option key={t} value={t}>
                  {typeLabel(t)}
                </option>
              ))}
            </select>
          </label>
          <label className="check">
            <input type="checkbox" checked={learn} onChange={(e) => setLearn(e.target.checked)} />
            <span>Read future emails like this one</span>
          </label>
          {unseen ? (
            <div className="notice notice-warn" role="alert" data-testid="resolve-unseen">
              <p>
                <strong>Not saved yet.</strong>{" "}
                {unseen.fields.includes("amount") &&
                  `The email does not show ${money(Number(form.amount))}${
                    unseen.suggestion?.amount != null ? `: it says ${money(unseen.suggestion.amount)}` : ""
                  }. `}
                {unseen.fields.includes("date") &&
                  `The email does not show the date ${form.date}${
                    unseen.suggestion?.date ? `: it says ${unseen.suggestion.date}` : ""
                  }. `}
                Check what you typed.
              </p>
              <div className="inline">
                {unseen.fields.includes("amount") && unseen.suggestion?.amount != null && (
                  <button
                    type="button"
                    className="btn btn-primary"
                    onClick={() => {
                      setError(null);
                      setForm({ ...form, amount: unseen.suggestion!.amount!.toFixed(2) });
                    }}
                  >
                    Use {money(unseen.suggestion.amount)}
                  </button>
                )}
                <button
                  type="button"
                  className="btn"
                  disabled={!canWrite || busy}
                  onClick={() => void save(true)}
                >
                  Save as typed
                </button>
              </div>
            </div>
          ) : (
            <ErrorNotice error={error} />
          )}
          <div className="resolve-actions">
            <button type="submit" className="btn btn-primary" disabled={!canWrite || busy || !!unseen}>
              Save transaction
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
