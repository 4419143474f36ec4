/** What service verbs receive: the bindings, the clock, the caller, the ledger. No HTTP framework here. */
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import type { Env } from "../env";
import type { Clock } from "./clock";

/** The principal a request (or a background duty) runs as. */
export interface Principal {
  kind: "token" | "oauth" | "session" | "tofu" | "dev-bypass" | "demo" | "system";
  id: string | null;
  label: string | null;
  scope: "read" | "read+write" | null;
}

/**
 * One activity-ledger entry as a verb describes it. The envelope (principal, operation, method,
 * path) comes from the door that built the context; `ts` from its clock when the entry is queued.
 */
export interface JournalEntry {
  /** Resource kind: picks the reverter (domains/activity/reverters.ts). Null: envelope-only. */
  kind?: string | null;
  resourceId?: string | null;
  /** Pre-mutation image: `{}` for a create. */
  before?: object | null;
  /** The written value: null for a delete. */
  after?: object | null;
  /** Defaults to a description of the images' change. */
  summary?: string | null;
  /** Rows the images cover (bulk edits); above 200 the entry is kept envelope-only. */
  rows?: number;
  /** false for entries that keep images for transparency only (a revert's own entry). */
  reversible?: boolean;
  /** A pre-chosen entry id (a revert stamps the original with its own entry's id first). */
  id?: string;
}

/** A non-empty list of drizzle statements: what D1 runs as one batch (its only transaction). */
export type Statements = readonly [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

/** What service verbs receive instead of a Hono context. */
export interface ServiceCtx {
  env: Env;
  clock: Clock;
  principal: Principal;
  waitUntil: (p: Promise<unknown>) => void;
  /**
   * Queues this write's ledger entry and returns its id. The verb's next `batch` writes it with
   * the change; an entry no batch took is written by the door before it answers (and dropped when
   * the call fails).
   */
  journal(entry: JournalEntry): string;
  /**
   * Runs `stmts` and the queued ledger entries as ONE db.batch: the change and its entry, or
   * neither. `ifChanged`: the entries are written only when the LAST statement changed a row (a
   * guarded write that matched nothing, about to become a 404/409, leaves no entry either).
   */
  batch<T extends Statements>(stmts: T, opts?: { ifChanged?: boolean }): Promise<BatchResponse<T>>;
}

/** What a query that writes needs from the context: the batch that also carries the ledger. */
export type Batch = ServiceCtx["batch"];
