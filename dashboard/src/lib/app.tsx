// What every page needs to know: the config (demo mode, time zone), health, the category list,
// and whether writes are allowed.
import { createContext, useContext } from "react";
import type { AppConfig, Health } from "../api/types";

export interface AppState {
  config: AppConfig;
  setConfig: (c: AppConfig) => void;
  health: Health | undefined;
  refreshHealth: () => void;
  categories: string[];
  reloadCategories: () => void;
  /** False in demo mode: the API is read-only and the UI disables every write. */
  canWrite: boolean;
  signOut: () => Promise<void>;
}

export const AppContext = createContext<AppState | null>(null);

export function useApp(): AppState {
  const ctx = useContext(AppContext);
  if (!ctx) throw new Error("useApp outside <AppContext>");
  return ctx;
}
