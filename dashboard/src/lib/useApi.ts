// Loads data for a page: {data, error, loading, reload}. A change of key clears the old data;
// reload() keeps it on screen while the fresh copy loads.
import { useCallback, useEffect, useRef, useState } from "react";
import { DATA_CHANGED } from "../api/client";

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
  setData: (fn: (prev: T | undefined) => T | undefined) => void;
}

export function useApi<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: unknown; loading: boolean }>({
    key,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: key and tick are the triggers by design
  useEffect(() => {
    let live = true;
    setState((s) => (s.key === key ? { ...s, loading: true } : { key, loading: true }));
    loadRef.current().then(
      (data) => live && setState({ key, data, loading: false }),
      (error: unknown) =>
        live && setState((s) => ({ key, data: s.key === key ? s.data : undefined, error, loading: false })),
    );
    return () => {
      live = false;
    };
  }, [key, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  // An Undo from a toast changes data under the page: reload what is on screen.
  useEffect(() => {
    window.addEventListener(DATA_CHANGED, reload);
    return () => window.removeEventListener(DATA_CHANGED, reload);
  }, [reload]);
  const setData = useCallback(
    (fn: (prev: T | undefined) => T | undefined) => setState((s) => ({ ...s, data: fn(s.data) })),
    [],
  );
  const current = state.key === key;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : undefined,
    loading: !current || state.loading,
    reload,
    setData,
  };
}
