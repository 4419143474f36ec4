// What an empty journal says: how alerts get in (Email Routing, the polled mailbox, upload),
// that a password protects it, and — on this machine only — a demo household to look around with.
import { api, DATA_CHANGED, unwrap } from "../api/client";
import type { SetupStatus } from "../api/types";
import { useApp } from "../lib/app";
import { ago, monthLabel } from "../lib/format";
import { Link } from "../lib/router";
import { useApi } from "../lib/useApi";
import { Empty, ErrorNotice } from "./States";
import { useAction } from "./useAction";

/** The empty month's message: the first-run guide when the whole journal is empty. */
export function EmptyMonth({ month }: { month: string }) {
  const setup = useApi(() => unwrap(api.GET("/api/v1/setup/status")), "setup");
  if (setup.data?.empty) return <FirstRun status={setup.data} />;
  return (
    <Empty title={`Nothing recorded in ${monthLabel(month)}`}>
      Transactions appear here as bank alerts arrive. You can also <Link to="/upload">upload an email</Link>.
    </Empty>
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

function FirstRun({ status }: { status: SetupStatus }) {
  const { canWrite } = useApp();
  const { run, busy, error } = useAction();
  const addDemo = () =>
    run(async () => {
      await unwrap(api.POST("/api/v1/setup/demo-data"));
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
          <ErrorNotice error={error} />
        </div>
      )}
    </div>
  );
}
