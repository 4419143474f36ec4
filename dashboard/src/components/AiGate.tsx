// Every AI action says beforehand what it needs, and a button that cannot work is disabled with
// the reason beside it and a link to Settings → Intelligence. The server decides readiness
// (GET /config/ai-readiness, the same routing every model call uses); reloaded when settings change.
import { type ReactNode, useState } from "react";
import { api, unwrap } from "../api/client";
import type { components } from "../api/schema";
import { useApp } from "../lib/app";
import { Link } from "../lib/router";
import { useApi } from "../lib/useApi";

type Readiness = components["schemas"]["AiReadinessResponse"]["actions"][number];
export type AiReadiness = Readiness;
export type AiAction = Readiness["action"];

type Answer = components["schemas"]["AiReadinessResponse"];
/** One read shared by every AI action on screen for the same settings (a few seconds at most). */
let shared: { key: string; at: number; answer: Promise<Answer> } | null = null;
function load(key: string): Promise<Answer> {
  if (shared && shared.key === key && Date.now() - shared.at < 5000) return shared.answer;
  const answer = unwrap(api.GET("/api/v1/config/ai-readiness"));
  shared = { key, at: Date.now(), answer };
  answer.catch(() => {
    shared = null;
  });
  return answer;
}

/** Readiness of one action; undefined while loading (buttons stay usable then: the server decides). */
export function useAiReadiness(action: AiAction): Readiness | undefined {
  const { config } = useApp();
  const key = JSON.stringify(config);
  const data = useApi(() => load(key), key);
  return data.data?.actions.find((a) => a.action === action);
}

type TaskState = Answer["tasks"][number];
/** Whether a task's chosen provider can be reached now (Settings → Intelligence shows it per row). */
export function useTaskReadiness(task: TaskState["task"]): TaskState | undefined {
  const { config } = useApp();
  const key = JSON.stringify(config);
  const data = useApi(() => load(key), key);
  return data.data?.tasks.find((t) => t.task === task);
}

/** Opens Settings → Intelligence (and scrolls to it). */
export function SettingsLink({
  children = "Set it up in Settings → Intelligence",
}: {
  children?: ReactNode;
}) {
  return (
    <Link
      to="/settings#intelligence"
      data-testid="ai-setup-link"
      onClick={() => setTimeout(() => document.getElementById("intelligence")?.scrollIntoView(), 50)}
    >
      {children}
    </Link>
  );
}

const DISMISSED = "fj.ai-notice-dismissed";
const dismissedSet = (): Set<string> => {
  try {
    return new Set(JSON.parse(localStorage.getItem(DISMISSED) ?? "[]"));
  } catch {
    return new Set();
  }
};

/**
 * The line beside an AI action: what it uses, or (one compact, dismissible line) why it cannot run
 * now. What it needs stays for screen readers and the tooltip; a dismissed notice stays gone on
 * this device (the button's own description keeps the reason).
 */
export function AiNeeds({ action, r }: { action: AiAction; r: Readiness | undefined }) {
  const [dismissed, setDismissed] = useState(() => dismissedSet().has(action));
  if (!r) return null;
  const id = `ai-needs-${action}`;
  if (r.ready) {
    return (
      <p className="muted small ai-needs" id={id} data-testid={id} data-ready="true">
        Sends to {r.provider_label}
        {r.model ? ` (${r.model})` : ""}. <SettingsLink>Change in Settings → Intelligence</SettingsLink>
      </p>
    );
  }
  const needs = ` Needs: ${r.needs}`;
  if (dismissed)
    return (
      <span className="sr-only" id={id} data-testid={id} data-ready="false">
        {r.reason}
        {needs}
      </span>
    );
  const dismiss = () => {
    const all = dismissedSet();
    all.add(action);
    try {
      localStorage.setItem(DISMISSED, JSON.stringify([...all]));
    } catch {
      // private mode: dismissed for this visit
    }
    setDismissed(true);
  };
  return (
    <div
      className="small ai-needs ai-needs-off"
      id={id}
      data-testid={id}
      data-ready="false"
      role="note"
      title={r.needs}
    >
      <p>
        <strong>Not available: </strong>
        {r.reason}
        <span className="sr-only">{needs}</span> <SettingsLink>Set up</SettingsLink>
      </p>
      <button
        type="button"
        className="btn-icon"
        onClick={dismiss}
        aria-label="Dismiss this notice"
        data-testid="ai-dismiss"
      >
        ×
      </button>
    </div>
  );
}

/** A button for an AI action, disabled (with the reason beside it, via AiNeeds) when it cannot work. */
export function AiButton({
  action,
  r,
  disabled,
  onClick,
  className = "btn",
  children,
}: {
  action: AiAction;
  r: Readiness | undefined;
  disabled?: boolean;
  onClick: () => void;
  className?: string;
  children: ReactNode;
}) {
  const blocked = r !== undefined && !r.ready;
  return (
    <button
      type="button"
      className={className}
      onClick={onClick}
      disabled={disabled || blocked}
      aria-describedby={r ? `ai-needs-${action}` : undefined}
      data-testid={`ai-button-${action}`}
    >
      {children}
    </button>
  );
}
