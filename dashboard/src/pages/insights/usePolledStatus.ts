// Polls a job's status while it runs; calls onFinish once when a run this page saw ends.
import { useCallback, useEffect, useRef, useState } from "react";

export function usePolledStatus<T extends { status: string }>(
  load: () => Promise<T>,
  onFinish: (s: T) => void,
  intervalMs = 1200,
) {
  const [status, setStatus] = useState<T | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;
  const finishRef = useRef(onFinish);
  finishRef.current = onFinish;
  const wasRunning = useRef(false);

  const refresh = useCallback(async () => {
    try {
      const s = await loadRef.current();
      setStatus(s);
      if (wasRunning.current && s.status !== "running") finishRef.current(s);
      wasRunning.current = s.status === "running";
    } catch {
      /* the next tick tries again */
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  const running = status?.status === "running";
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => void refresh(), intervalMs);
    return () => clearInterval(t);
  }, [running, refresh, intervalMs]);

  /** After a start: mark running so the end is noticed, then poll. */
  const started = useCallback(() => {
    wasRunning.current = true;
    void refresh();
  }, [refresh]);
  return { status, refresh, started };
}
