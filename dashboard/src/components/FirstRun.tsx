// What an empty journal says: how alerts get in (Email Routing, the polled mailbox, upload),
// that a password protects it, and — on this machine only — a demo household to look around with.
import { useState } from "react";
import { api, DATA_CHANGED, unwrap } from "../api/client";
import type { components } from "../api/schema";
import type { SetupStatus } from "../api/types";
import { useApp } from "../lib/app";
import { ago, monthLabel } from "../lib/format";
import { Link } from "../lib/router";
import { thousands } from "../lib/download";
import { useApi } from "../lib/useApi";
import { Empty, ErrorNotice } from "./States";
import { StepProgress } from "./StepProgress";
import { useAction } from "./useAction";

/**
 * The empty month's message: the first-run guide when the whole journal is empty; otherwise where
 * the newest transaction is (a first alert is often from another month than today's).
 */
export function EmptyMonth({ month }: { month: string }) {
  const setup = useApi(() => unwrap(api.GET("/api/v1/setup/status")), "setup");
  const newest = useApi(() => unwrap(api.GET("/api/v1/transactions/latest")), "latest");
  if (setup.data?.empty) return <FirstRun status={setup.data} />;
  const there = newest.data?.month;
  return (
    <Empty title={`Nothing recorded in ${monthLabel(month)}`}>
      {there && there !== month ? (
        <span data-testid="newest-month">
          Your newest transaction is in {monthLabel(there)}:{" "}
          <Link to={`/?month=${there}`}>open {monthLabel(there)}</Link>.
        </span>
      ) : (
        <>
          Transactions appear here as bank alerts arrive. You can also{" "}
          <Link to="/upload">upload an email</Link>.
        </>
      )}
    </Empty>
  );
}

/**
 * The first hour, step by step, until each step is done (the state is read, never remembered):
 * a password, a first transaction, a bank taught, a budget. Nothing shows once all four are done.
 */
export function GettingStarted({ open }: { open: boolean }) {
  const year = new Date().getFullYear();
  const setup = useApi(() => unwrap(api.GET("/api/v1/setup/status")), "setup");
  const taught = useApi(() => unwrap(api.GET("/api/v1/templates")), "templates");
  const budget = useApi(
    () => unwrap(api.GET("/api/v1/budget/config", { params: { query: { year } } })),
    `budget-${year}`,
  );
  const newest = useApi(() => unwrap(api.GET("/api/v1/transactions/latest")), "latest");
  if (!setup.data || !taught.data || !budget.data) return null;
  const there = newest.data?.month;
  const steps = [
    {
      key: "password",
      done: setup.data.password_set,
      body: (
        <>
          <strong>Set a password</strong> so only you can read the journal:{" "}
          <Link to="/settings" onClick={toAccount}>
            Settings → Account
          </Link>
          .
        </>
      ),
    },
    {
      key: "transaction",
      done: !setup.data.empty,
      body: (
        <>
          <strong>Bring in a first transaction</strong>: forward a bank alert, or{" "}
          <Link to="/upload">upload one</Link>; it lands in the month of its date
          {there ? ` (the newest is in ${monthLabel(there)})` : ""}.
        </>
      ),
    },
    {
      key: "bank",
      done: taught.data.count > 0,
      body: (
        <>
          <strong>Teach the journal a bank</strong> it cannot read yet: such alerts wait in{" "}
          <Link to="/review">Needs review</Link>, where one example teaches it the rest.
        </>
      ),
    },
    {
      key: "budget",
      done: budget.data.targets_version > 0,
      body: (
        <>
          <strong>Set a budget</strong> for {year}: <Link to="/budget/edit">Edit budget</Link>.
        </>
      ),
    },
  ];
  const left = steps.filter((s) => !s.done);
  if (left.length === 0) return null;
  return (
    <details className="card getting-started" open={open} data-testid="getting-started">
      <summary>
        Getting started: {steps.length - left.length} of {steps.length} done
      </summary>
      <ol>
        {left.map((s) => (
          <li key={s.key} data-testid={`step-${s.key}`}>
            {s.body}
          </li>
        ))}
      </ol>
    </details>
  );
}

/** After the Settings page renders, bring its Account card (the password form) into view. */
function toAccount() {
  let tries = 0;
  const look = () => {
    const card = document.getElementById("account");
    if (card) card.scrollIntoView({ block: "start" });
    else if (tries++ < 20) setTimeout(look, 50);
  };
  setTimeout(look, 0);
}

type DemoDataStatus = components["schemas"]["DemoDataStatus"];

const loadDemo = () => unwrap(api.GET("/api/v1/setup/demo-data"));

function FirstRun({ status }: { status: SetupStatus }) {
  const { canWrite } = useApp();
  const { run, busy, error } = useAction();
  const [seed, setSeed] = useState<DemoDataStatus | null>(null);
  // The seed goes on in background steps: its count is read each second until done, then the
  // journal reloads (the loop lives in the action, so it ends even if this screen goes first).
  const addDemo = () =>
    run(async () => {
      let s = await unwrap(api.POST("/api/v1/setup/demo-data"));
      setSeed(s);
      while (s.status === "running") {
        await new Promise((r) => setTimeout(r, 1000));
        s = await loadDemo().catch(() => s);
        setSeed(s);
      }
      if (s.status === "error") throw new Error(s.error ?? "The demo data could not be added");
      window.dispatchEvent(new Event(DATA_CHANGED));
    }, "Demo data added");
  const mb = status.mailbox;
  return (
    <div className="first-run" data-testid="first-run">
      <div className="card">
        <h2>Welcome — your journal is empty</h2>
        <p>
          Transactions arrive as your bank's alert emails. Turn on transaction alerts at each bank, then send
          them here in one of these ways:
        </p>
        <ol className="first-run-steps">
          <li>
            <strong>Forward to the journal's address</strong> (Cloudflare Email Routing).{" "}
            {status.email_routing.forward_to.length > 0 ? (
              <>
                Alerts have arrived at{" "}
                {status.email_routing.forward_to.map((a, i) => (
                  <span key={a}>
                    {i > 0 && ", "}
                    <code>{a}</code>
                  </span>
                ))}
                : forward more there.
              </>
            ) : (
              <>
                In Cloudflare → Email → Email Routing, add an address (for example{" "}
                <code>alerts@your-domain</code>) with the action “Send to a Worker” →{" "}
                <code>finance-journal</code>, then have your mail forward bank alerts to it.
              </>
            )}
          </li>
          <li data-testid="first-run-mailbox">
            <strong>Let the journal check a mailbox</strong> (IMAP).{" "}
            {mb.configured ? (
              <>
                It checks <code>{mb.address ?? "the configured mailbox"}</code>
                {mb.folder && <> ({mb.folder})</>} every minute —{" "}
                {mb.last_poll ? `last checked ${ago(mb.last_poll)}` : "not checked yet"}
                {mb.backlog ? ` · ${mb.backlog.toLocaleString()} messages left to read` : null}
                {mb.last_error && <span className="text-danger"> · last check failed: {mb.last_error}</span>}.
                Forward your alerts to that address.
              </>
            ) : (
              <>
                Not set up: set <code>IMAP_HOST</code> and <code>IMAP_USER</code> in{" "}
                <code>wrangler.toml</code> and the <code>IMAP_PASSWORD</code> secret.
              </>
            )}
          </li>
          <li>
            <strong>Upload</strong> a saved alert email on the <Link to="/upload">Upload</Link> page, or a
            statement on <Link to="/statements">Statements</Link>.
          </li>
        </ol>
      </div>
      {!status.password_set && (
        <div className="card" data-testid="first-run-password">
          <h2>Set a password</h2>
          <p>
            Until you do, anyone who can reach this journal can read it.{" "}
            <Link to="/settings" onClick={toAccount}>
              Set one in Settings → Account
            </Link>
            .
          </p>
        </div>
      )}
      {status.demo_data_available && canWrite && (
        <div className="card" data-testid="first-run-demo">
          <h2>Just looking around?</h2>
          <p>
            Fill this journal with eight months of a made-up household to try every page. Only offered here,
            on this machine, while the journal is empty.
          </p>
          <button type="button" className="btn btn-primary" onClick={addDemo} disabled={busy}>
            {busy ? "Adding…" : "Add demo data"}
          </button>
          {busy && seed && <DemoProgress run={seed} />}
          <ErrorNotice error={error} />
        </div>
      )}
    </div>
  );
}

/** While the demo household goes through the pipeline in steps: the alerts sent of all, then the rest. */
function DemoProgress({ run }: { run: DemoDataStatus }) {
  const alerts = run.stage === "alerts";
  return (
    <StepProgress
      run={run}
      testId="demo-progress"
      label="Adding demo data"
      max={run.emails_total + 1}
      value={run.emails_done}
      failed="The demo data could not be added"
      why="(sent in steps, as the journal does all long work)"
    >
      {alerts
        ? `Sending bank alerts through the same pipeline as your email: ${thousands(run.emails_done)} of ${thousands(run.emails_total)}.`
        : `All ${thousands(run.emails_total)} bank alerts are in; now a card statement, receipts and a few things left to do.`}
    </StepProgress>
  );
}
