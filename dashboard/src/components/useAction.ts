// Runs a write: tracks busy state, keeps the error for display, and reports success. When the
// write was reversible (the Worker named its ledger entry), the success toast carries Undo.
import { useCallback, useState } from "react";
import { onReversibleWrite } from "../api/client";
import { useToast } from "./Toast";

export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const notify = useToast();
  const run = useCallback(
    async <T>(fn: () => Promise<T>, success?: string | ((out: T) => string)): Promise<T | undefined> => {
      setBusy(true);
      setError(null);
      const entries: string[] = [];
      const stop = onReversibleWrite((id) => entries.push(id));
      try {
        const out = await fn();
        stop();
        const message = typeof success === "function" ? success(out) : success;
        if (message) notify(message, "ok", entries);
        return out;
      } catch (err) {
        setError(err);
        return undefined;
      } finally {
        stop();
        setBusy(false);
      }
    },
    [notify],
  );
  return { busy, error, setError, run };
}
