// A PDF statement no rule reads (or whose balances do not add up): its first page laid out as it
// prints, where the person marks once which column is the date, the description, the amount (or
// withdrawal and deposit) and the balance. The journal keeps that layout for the bank's next statements.
// With document parsing routed to a model, the model's marks come prefilled, but only when the rows
// they read add up to the printed balances (the server judges); the person still confirms them.
import { useState } from "react";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { money } from "../../lib/format";

type Marks = components["schemas"]["LayoutMarks"];
type Role = keyof Marks;
type PageText = components["schemas"]["StatementPageText"];
type Proposal = components["schemas"]["StatementLayoutProposal"];
const ROLES: [Role, string][] = [
  ["date", "Date"],
  ["description", "Description"],
  ["amount", "Amount"],
  ["withdrawal", "Withdrawal"],
  ["deposit", "Deposit"],
  ["balance", "Balance"],
];

export function LayoutTeacher({
  id,
  institution,
  onDone,
}: {
  id: string;
  institution: string;
  onDone: () => void;
}) {
  const [page, setPage] = useState<PageText | null>(null);
  const [role, setRole] = useState<Role>("date");
  const [marks, setMarks] = useState<Partial<Marks>>({});
  const [bank, setBank] = useState(institution === "Other" ? "" : institution);
  const [proposal, setProposal] = useState<Proposal | "asking" | null>(null);
  const action = useAction();
  const path = { params: { path: { statement_id: id } } };
  // The model's proposal is asked for once the page shows; it prefills the marks only if the person
  // has not started marking. A model failure is a dropped proposal in words; a network one shows nothing.
  const ask = async () => {
    setProposal("asking");
    const got = await unwrap(api.GET("/api/v1/statements/{statement_id}/layout-proposal", path)).catch(
      () => null,
    );
    setProposal(got);
    const marks = got?.proposal?.marks;
    if (marks) setMarks((m) => (Object.keys(m).length ? m : marks));
  };
  const open = () =>
    void action.run(async () => {
      setPage(await unwrap(api.GET("/api/v1/statements/{statement_id}/page-text", path)));
      void ask();
    });
  // The marks as the model proposed them (untouched): the save says so in the activity log.
  const proposed = proposal !== "asking" ? proposal?.proposal?.marks : undefined;
  const asProposed = proposed !== undefined && JSON.stringify(proposed) === JSON.stringify(marks);
  const save = () =>
    void action.run(async () => {
      await unwrap(
        api.PUT("/api/v1/statements/{statement_id}/layout", {
          ...path,
          body: { marks: marks as Marks, institution: bank.trim() || undefined, proposed: asProposed },
        }),
      );
      setPage(null);
      onDone();
    }, "Columns saved: statements of this layout now read on their own");
  const ready = marks.date && marks.description && (marks.amount || marks.withdrawal || marks.deposit);
  const lines = (page?.lines ?? []).filter((l) => l.page === 1);
  const top = Math.max(...lines.map((l) => l.y), 0);
  const roleAt = (x: number, w: number) =>
    ROLES.find(([r]) => {
      const s = marks[r];
      return s && x < s.x1 && x + w > s.x0;
    })?.[1];
  return (
    <div className="card" data-testid="layout-teacher">
      <h2>Teach the journal this statement's columns</h2>
      <p className="muted small">
        Pick a column kind, then click a value of that column on the page (a date, a description, an amount…).
        The rows are read with your marks and checked against the printed balances.
      </p>
      <ErrorNotice error={action.error} />
      {!page && (
        <button type="button" className="btn" onClick={open} disabled={action.busy} data-testid="layout-open">
          Mark the columns
        </button>
      )}
      {action.busy && !page && <Loading rows={2} />}
      {proposal === "asking" && (
        <p className="muted small" data-testid="layout-proposal-asking">
          Asking the document-parsing model to propose the columns…
        </p>
      )}
      {proposal !== "asking" && proposal?.proposal && (
        <div className="notice notice-ok" role="status" data-testid="layout-proposal">
          <strong>Proposed by the model ({proposal.proposal.model}).</strong> Its columns read{" "}
          {proposal.proposal.rows} rows, and they add up from the printed opening balance{" "}
          {money(proposal.proposal.opening)} to the closing balance {money(proposal.proposal.closing)}. The
          marks below are its proposal: check them, change any, then confirm.
        </div>
      )}
      {proposal !== "asking" && proposal?.asked && !proposal.proposal && (
        <p className="notice notice-warn" role="status" data-testid="layout-proposal-dropped">
          {proposal.reason}
        </p>
      )}
      {page && (
        <>
          <div className="row-gap wrap" role="radiogroup" aria-label="Column kind">
            {ROLES.map(([r, label]) => (
              <label key={r} className="inline small">
                <input type="radio" name="layout-role" checked={role === r} onChange={() => setRole(r)} />{" "}
                {label}
                {marks[r] ? " ✓" : ""}
              </label>
            ))}
          </div>
          <div className="layout-page" data-testid="layout-page">
            <div
              style={{
                position: "relative",
                width: 620,
                height: top - Math.min(...lines.map((l) => l.y)) + 20,
              }}
            >
              {lines.flatMap((l) =>
                l.items.map((it) => (
                  <button
                    type="button"
                    key={`${l.y}-${it.x}`}
                    className={`layout-item${roleAt(it.x, it.w) ? " layout-marked" : ""}`}
                    title={roleAt(it.x, it.w) ?? "not marked"}
                    style={{ left: it.x, top: top - l.y }}
                    onClick={() => setMarks({ ...marks, [role]: { x0: it.x, x1: it.x + it.w } })}
                  >
                    {it.str}
                  </button>
                )),
              )}
            </div>
          </div>
          <div className="row-gap wrap">
            <label className="inline small">
              Bank{" "}
              <input
                value={bank}
                maxLength={100}
                onChange={(e) => setBank(e.target.value)}
                aria-label="Bank name"
              />
            </label>
            <button
              type="button"
              className="btn btn-primary"
              disabled={!ready || action.busy}
              onClick={save}
              data-testid="layout-save"
            >
              {proposal !== "asking" && proposal?.proposal
                ? "Confirm these columns"
                : "Read with these columns"}
            </button>
            <button type="button" className="btn" onClick={() => setMarks({})}>
              Clear marks
            </button>
          </div>
        </>
      )}
    </div>
  );
}
