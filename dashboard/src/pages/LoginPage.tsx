import { type FormEvent, useState } from "react";
import { api, unwrap } from "../api/client";
import { ErrorNotice } from "../components/States";

/** Shown in place of any page while the API answers 401. */
export function LoginPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await unwrap(api.POST("/api/v1/auth/login", { body: { password } }));
      onSignedIn();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <main className="login">
      <form className="card login-card" onSubmit={submit} aria-labelledby="login-h">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Finance Journal
        </div>
        <h1 id="login-h">Sign in</h1>
        <p className="muted">This journal is protected with a password.</p>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            autoComplete="current-password"
            required
            // biome-ignore lint/a11y/noAutofocus: the only thing to do on this page
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <ErrorNotice error={error} />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy || !password}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
