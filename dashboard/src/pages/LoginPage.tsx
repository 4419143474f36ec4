import { type FormEvent, useState } from "react";
import { api, unwrap } from "../api/client";
import { ErrorNotice } from "../components/States";

/**
 * Shown in place of any page while the API answers 401. In setup mode (a deployed journal that has
 * no password yet) it asks for a setup token from `npm run token -- issue --remote` and a password.
 */
export function LoginPage({ onSignedIn, setup = false }: { onSignedIn: () => void; setup?: boolean }) {
  const [password, setPassword] = useState("");
  const [token, setToken] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (setup) {
        await unwrap(
          api.POST("/api/v1/auth/set-password", {
            body: { password },
            headers: { authorization: `Bearer ${token.trim()}` },
          }),
        );
      } else {
        await unwrap(api.POST("/api/v1/auth/login", { body: { password } }));
      }
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
        <h1 id="login-h">{setup ? "Finish setting up" : "Sign in"}</h1>
        {setup ? (
          <p className="muted">
            This journal is on the internet and has no password yet. Paste the setup token printed by{" "}
            <code>npm run token -- issue --remote --label setup</code> and choose a password.
          </p>
        ) : (
          <p className="muted">This journal is protected with a password.</p>
        )}
        {setup && (
          <label className="field">
            <span>Setup token</span>
            <input
              type="password"
              autoComplete="off"
              required
              // biome-ignore lint/a11y/noAutofocus: the first thing to do on this page
              autoFocus
              placeholder="fin_…"
              value={token}
              onChange={(e) => setToken(e.target.value)}
            />
          </label>
        )}
        <label className="field">
          <span>{setup ? "New password (at least 8 characters)" : "Password"}</span>
          <input
            type="password"
            autoComplete={setup ? "new-password" : "current-password"}
            required
            minLength={setup ? 8 : undefined}
            // biome-ignore lint/a11y/noAutofocus: the only thing to do on this page
            autoFocus={!setup}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <ErrorNotice error={error} />
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={busy || !password || (setup && !token.trim())}
        >
          {busy ? (setup ? "Setting up…" : "Signing in…") : setup ? "Set password and sign in" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
