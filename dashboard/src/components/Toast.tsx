// Short confirmations ("Category saved") in a polite live region. A confirmation of a reversible
// write carries Undo: it reverts the write's ledger entries (newest first) and reloads the page's data.
import { createContext, type ReactNode, useCallback, useContext, useState } from "react";
import { api, DATA_CHANGED, unwrap } from "../api/client";
import { ApiError } from "../api/errors";

interface Toast {
  id: number;
  text: string;
  tone: "ok" | "error";
  undo: string[];
}
type Notify = (text: string, tone?: "ok" | "error", undo?: readonly string[]) => void;
const ToastContext = createContext<Notify>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const drop = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const notify = useCallback<Notify>(
    (text, tone = "ok", undo = []) => {
      const id = Date.now() + Math.random();
      setToasts((t) => [...t.slice(-2), { id, text, tone, undo: [...undo] }]);
      // An Undo offer stays long enough to reach for it.
      setTimeout(() => drop(id), undo.length ? 10_000 : 3500);
    },
    [drop],
  );
  const revert = useCallback(
    async (toast: Toast) => {
      drop(toast.id);
      try {
        for (const entry of [...toast.undo].reverse())
          await unwrap(
            api.POST("/api/v1/activity/{entry_id}/revert", { params: { path: { entry_id: entry } } }),
          );
        notify("Undone");
      } catch (err) {
        notify(err instanceof ApiError ? `Couldn't undo: ${err.message}` : "Couldn't undo", "error");
      }
      window.dispatchEvent(new Event(DATA_CHANGED));
    },
    [drop, notify],
  );
  return (
    <ToastContext.Provider value={notify}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} className={`toast toast-${t.tone}`} data-testid="toast">
            {t.text}
            {t.undo.length > 0 && (
              <button type="button" className="toast-undo" onClick={() => revert(t)} data-testid="toast-undo">
                Undo
              </button>
            )}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast() {
  return useContext(ToastContext);
}
