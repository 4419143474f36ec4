// Runs a write: tracks busy state, keeps the error for display, and reports success.
import { useCallback, useState } from "react";
import { useToast } from "./Toast";

export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const notify = useToast();
  const run = useCallback(
    async <T>(fn: () => Promise<T>, success?: string): Promise<T | undefined> => {
      setBusy(true);
      setError(null);
      try {
        const out = await fn();
        if (success) notify(success);
        return out;
      } catch (err) {
        setError(err);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [notify],
  );
  return { busy, error, setError, run };
}
