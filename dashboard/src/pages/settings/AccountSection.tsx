import { type FormEvent, useState } from "react";
import { api, unwrap } from "../../api/client";
import { ErrorNotice, Loading } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";
import { useApi } from "../../lib/useApi";

const KINDS: Record<string, string> = {
  session: "Signed in with your password.",
  tofu: "No password yet: anyone who can reach this service can use it. Set one below.",
  token: "Using an API token.",
  "dev-bypass": "The development bypass is on: no sign-in is needed.",
};

/** Set or change the password, and sign out (here or everywhere). */
export function AccountSection() {
  const { canWrite, signOut, refreshHealth, health, config } = useApp();
  const me = useApi(() => unwrap(api.GET("/api/v1/whoami")), "whoami");
  const [pw, setPw] = useState({ current: "", next: "", confirm: "" });
  const { busy, error, setError, run } = useAction();
  const hasPassword = health?.auth_required ?? me.data?.kind === "session";
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pw.next !== pw.confirm) {
      setError(new Error("The two new passwords don't match."));
      return;
    }
    run(
      async () => {
        await unwrap(
          api.POST("/api/v1/auth/set-password", {
            body: { password: pw.next, current_password: hasPassword ? pw.current : null },
          }),
        );
        setPw({ current: "", next: "", confirm: "" });
        refreshHealth();
        me.reload();
      },
      hasPassword ? "Password changed" : "Password set: this journal now needs it to sign in",
    );
  };
  const signOutAll = () =>
    run(async () => {
      await unwrap(api.POST("/api/v1/auth/sign-out-all"));
      await signOut();
    });
  return (
    <div className="card" id="account">
      <h2>Account</h2>
      {me.loading && !me.data && <Loading rows={1} />}
      {me.data && (
        <p data-testid="whoami">
          {config.demo_mode
            ? "This is the read-only demo: no sign-in is needed."
            : (KINDS[me.data.kind] ?? me.data.kind)}
        </p>
      )}
      <form
        onSubmit={submit}
        className="form-stack"
        aria-label={hasPassword ? "Change password" : "Set a password"}
      >
        <h3 className="small-h">{hasPassword ? "Change password" : "Set a password"}</h3>
        {hasPassword && (
          <label className="field">
            <span>Current password</span>
            <input
              type="password"
              autoComplete="current-password"
              required
              value={pw.current}
              onChange={(e) => setPw({ ...pw, current: e.target.value })}
            />
          </label>
        )}
        <label className="field">
          <span>New password (8 characters or more)</span>
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={pw.next}
            onChange={(e) => setPw({ ...pw, next: e.target.value })}
          />
        </label>
        <label className="field">
          <span>Repeat the new password</span>
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={pw.confirm}
            onChange={(e) => setPw({ ...pw, confirm: e.target.value })}
          />
        </label>
        <ErrorNotice error={error} />
        <div className="inline">
          <button type="submit" className="btn btn-primary" disabled={!canWrite || busy}>
            {hasPassword ? "Change password" : "Set password"}
          </button>
        </div>
      </form>
      {me.data?.kind === "session" && (
        <div className="inline section-foot">
          <button type="button" className="btn" onClick={() => run(signOut)} disabled={busy}>
            Sign out
          </button>
          <button
            type="button"
            className="btn btn-danger-quiet"
            onClick={signOutAll}
            disabled={busy || !canWrite}
          >
            Sign out everywhere
          </button>
        </div>
      )}
    </div>
  );
}
