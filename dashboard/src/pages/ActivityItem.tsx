import { useState } from "react";
import { api, unwrap } from "../api/client";
import { hasCode } from "../api/errors";
import type { ActivityEntry } from "../api/types";
import { ErrorNotice } from "../components/States";
import { useAction } from "../components/useAction";
import { useApp } from "../lib/app";
import { ago, stamp } from "../lib/format";
import { describeEntry, FIELD_WORDS, summaryWords } from "./activity-words";

const WORDS: Record<string, string> = {
  patchTransaction: "Changed a transaction",
  setTransactionComment: "Commented on a transaction",
  updateTransactionFields: "Edited transaction fields",
  softDeleteTransaction: "Moved a transaction to or from the trash",
  setTransactionIgnored: "Changed whether a transaction is ignored",
  permanentlyDeleteTransaction: "Deleted a transaction for good",
  putOverride: "Set a merchant rule",
  deleteOverride: "Removed a merchant rule",
  uploadEml: "Uploaded an email",
  putAppConfig: "Changed settings",
  revertActivity: "Undid an earlier change",
  addCategory: "Added a category",
  renameCategory: "Renamed a category",
  deleteCategory: "Deleted a category",
  issueApiToken: "Issued an API token",
  revokeApiToken: "Revoked an API token",
  addManualTransaction: "Added a transaction by hand",
  markTransactionReviewed: "Marked a transaction as reviewed",
  bulkUpdateTransactionCategory: "Changed categories in bulk",
  resolveParseFailure: "Resolved a quarantined email by hand",
  retryParseFailure: "Retried a quarantined email",
  retryAllParseFailures: "Retried every quarantined email",
  dismissParseFailure: "Dismissed a quarantined email",
  putMerchantAlias: "Set a merchant alias",
  deleteMerchantAlias: "Removed a merchant alias",
  addIgnoreRule: "Added an ignore rule",
  deleteIgnoreRule: "Removed an ignore rule",
  putBudgetConfig: "Changed the budget",
  putGroups: "Changed category groups",
};

/** "resolveParseFailure" → "Resolve parse failure", for operations without words of their own. */
function humanize(op: string): string {
  const words = op
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function sentence(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function who(e: ActivityEntry): string {
  switch (e.principal_kind) {
    case "session":
      return "you, signed in";
    case "tofu":
      return "you, before a password was set";
    case "token":
      return `token ${e.principal_label ?? e.principal_id ?? ""}`.trim();
    case "oauth":
      return `app ${e.principal_label ?? e.principal_id ?? ""}`.trim();
    case "system":
      return "the service";
    default:
      return e.principal_kind ?? "unknown";
  }
}

function changedKeys(e: ActivityEntry): string[] {
  if (!e.before || !e.after) return [];
  const keys = new Set([...Object.keys(e.before), ...Object.keys(e.after)]);
  return [...keys].filter(
    (k) =>
      FIELD_WORDS[k] !== null &&
      !INTERNAL_KEY.test(k) &&
      JSON.stringify(e.before?.[k]) !== JSON.stringify(e.after?.[k]),
  );
}

/** Fields a person never reads: ids, hashes, storage keys. */
const INTERNAL_KEY = /(^id$|_id$|[a-z]Id$|hash|sha\d*$|_key$|^key$)/i;

/** A value of a before/after image in words: a record's plain fields, never its JSON or its ids. */
function show(v: unknown): string {
  if (v === null || v === undefined || v === "") return "—";
  if (Array.isArray(v)) return v.map(show).join(", ") || "—";
  if (typeof v === "object") {
    const parts = Object.entries(v as Record<string, unknown>)
      .filter(([k, x]) => x !== null && typeof x !== "object" && !INTERNAL_KEY.test(k))
      .map(([k, x]) => `${humanize(k)}: ${show(x)}`);
    return parts.join(" · ") || "(changed)";
  }
  // An enum value ("pending_review") in words.
  if (typeof v === "string" && /^[a-z]+(_[a-z]+)+$/.test(v)) return humanize(v).toLowerCase();
  return String(v);
}

export function ActivityItem({
  entry: e,
  onChanged,
  byId,
}: {
  entry: ActivityEntry;
  onChanged: () => void;
  /** The entries on screen, so an undo can name what it undid. */
  byId?: Map<string, ActivityEntry>;
}) {
  const { canWrite, categories } = useApp();
  const { busy, error, setError, run } = useAction();
  const [stale, setStale] = useState(false);
  const words = WORDS[e.operation_id ?? ""] ?? (e.operation_id ? humanize(e.operation_id) : undefined);
  // What the images say first ("Starbucks: Coffee & Cafes → Groceries"); a revert's own summary
  // names ids, so it falls back to the words.
  const title =
    describeEntry(e, { categories, byId }) ??
    (e.operation_id === "revertActivity" ? words : summaryWords(e.summary)) ??
    words ??
    `${e.method ?? ""} ${e.path ?? ""}`.trim();
  const keys = changedKeys(e);
  const revert = (force: boolean) =>
    run(async () => {
      try {
        await unwrap(
          api.POST("/api/v1/activity/{entry_id}/revert", {
            params: { path: { entry_id: e.id }, query: force ? { force: true } : {} },
          }),
        );
      } catch (err) {
        if (hasCode(err, "stale_revert")) {
          setStale(true);
          return;
        }
        throw err;
      }
      setStale(false);
      onChanged();
    });
  return (
    <li className="activity-item" data-testid="activity-item" data-op={e.operation_id ?? ""}>
      <div className="row-between">
        <div className="activity-main">
          <span className="activity-title">{sentence(title)}</span>
          <span className="muted small">
            <time dateTime={e.ts} title={stamp(e.ts)}>
              {ago(e.ts)}
            </time>
            {` · by ${who(e)}`}
          </span>
        </div>
        <div className="inline">
          {e.reverted_at && <span className="tag">Undone {ago(e.reverted_at)}</span>}
          {e.reversible && !e.reverted_at && (
            <button
              type="button"
              className="btn btn-small"
              onClick={() => revert(false)}
              disabled={!canWrite || busy}
            >
              Undo
            </button>
          )}
        </div>
      </div>
      {keys.length > 0 && (
        <details className="activity-diff">
          <summary>What changed</summary>
          <dl className="facts">
            {keys.map((k) => (
              <div key={k}>
                <dt>{FIELD_WORDS[k] ?? humanize(k)}</dt>
                <dd>
                  <del>{show(e.before?.[k])}</del> → <ins>{show(e.after?.[k])}</ins>
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      {stale && (
        <div className="notice notice-warn" role="alert">
          <p>This was changed again after this entry, so undoing it would overwrite the newer change.</p>
          <div className="inline">
            <button
              type="button"
              className="btn btn-small btn-danger"
              onClick={() => revert(true)}
              disabled={busy}
            >
              Undo anyway
            </button>
            <button
              type="button"
              className="btn btn-small"
              onClick={() => {
                setStale(false);
                setError(null);
              }}
            >
              Keep the newer change
            </button>
          </div>
        </div>
      )}
      <ErrorNotice error={error} />
    </li>
  );
}
