import { useCallback, useEffect, useState } from "react";
import { api, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { ErrorNotice } from "../../components/States";
import { useAction } from "../../components/useAction";
import { useApp } from "../../lib/app";

type Status = components["schemas"]["VendorLoginStatusResponse"];

/** The vendor account: sign in with a code on any device (device flow), or disconnect. */
export function IntelligenceVendor() {
  const { canWrite } = useApp();
  const { busy, error, run } = useAction();
  const [st, setSt] = useState<Status | null>(null);
  const refresh = useCallback(
    () => unwrap(api.GET("/api/v1/auth/vendor/status")).then(setSt, () => undefined),
    [],
  );
  useEffect(() => void refresh(), [refresh]);
  // While a sign-in is pending, ask every few seconds (the server polls the provider at its own pace).
  useEffect(() => {
    if (!st?.pending) return;
    const t = setInterval(() => void refresh(), 3000);
    return () => clearInterval(t);
  }, [st?.pending, refresh]);
  const start = () =>
    run(async () => {
      await unwrap(api.POST("/api/v1/auth/vendor/start"));
      await refresh();
    });
  const disconnect = () =>
    run(async () => {
      await unwrap(api.POST("/api/v1/auth/vendor/disconnect"));
      await refresh();
    }, "Vendor account disconnected");
  return (
    <div className="intelligence-vendor" data-testid="vendor-connection">
      <h3>Vendor account</h3>
      {st?.connected ? (
        <p>
          Connected{st.email ? ` as ${st.email}` : ""}.{" "}
          <button type="button" className="btn btn-small" disabled={!canWrite || busy} onClick={disconnect}>
            Disconnect
          </button>
        </p>
      ) : st?.pending ? (
        <p role="status">
          Open{" "}
          <a href={st.verification_url ?? "#"} target="_blank" rel="noreferrer noopener">
            {st.verification_url}
          </a>{" "}
          and enter the code <strong>{st.user_code}</strong>. This page updates when you are done.
        </p>
      ) : (
        <p>
          <span className="muted small">Not connected.</span>{" "}
          <button type="button" className="btn btn-small" disabled={!canWrite || busy} onClick={start}>
            Connect
          </button>
        </p>
      )}
      {st?.error && <p className="text-danger small">{st.error}</p>}
      <ErrorNotice error={error} />
    </div>
  );
}
