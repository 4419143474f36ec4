/**
 * The ledger half of every service context. A verb queues its entry with `ctx.journal(...)` and
 * runs its change with `ctx.batch(...)`: the queued inserts ride in that same db.batch, so the
 * change and its entry land together or not at all (an undo never points at a write that did not
 * happen). The door that built the context (HTTP route, MCP tool, queue job, cron duty) supplies the
 * envelope and, before it answers, writes the entries no batch took (`settle`).
 */
import type { BatchResponse } from "drizzle-orm/batch";
import { getDb, type Db } from "../../db";
import type { Env } from "../../env";
import type { Clock } from "../../lib/clock";
import type { JournalEntry, Principal, ServiceCtx, Statements } from "../../lib/context";
import { log } from "../../lib/log";
import { type ActivityInsert, entryInserts, entryInsertsIfChanged } from "./queries";
import { describeChange, imagesRejection } from "./rules";

/** Who and what a door's entries record: the caller and the operation it ran. */
export interface Envelope {
  principal: Principal;
  /** The OpenAPI operationId (HTTP), `mcp.<tool>` (MCP) or the job's name (queue, cron). */
  operationId: string;
  method: string;
  path: string;
}

export function newEntryId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `act_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The stored row of one entry (images dropped, with the reason in the summary, when over a cap). */
function entryRow(e: JournalEntry, id: string, ts: string, env: Envelope): ActivityInsert {
  const kind = e.kind ?? null;
  const before = e.before ?? null;
  const after = e.after ?? null;
  const rejected = kind ? imagesRejection(e.rows ?? 1, before, after) : null;
  const keep = kind !== null && rejected === null;
  let summary = e.summary ?? (kind ? describeChange(kind, before, after) : null);
  if (rejected) summary = `${summary} (images omitted: ${rejected})`;
  return {
    id,
    ts,
    principal_kind: env.principal.kind,
    principal_id: env.principal.id,
    principal_label: env.principal.label,
    operation_id: env.operationId,
    method: env.method,
    path: env.path,
    resource_kind: kind,
    resource_id: e.resourceId ?? null,
    summary,
    before_json: keep ? before : null,
    after_json: keep ? after : null,
    reversible: keep && e.reversible !== false ? 1 : 0,
    reverted_at: null,
    reverted_by: null,
  };
}

/** A ledger write failed on the ledger's own table (the change is fine without it: fail-open). */
const ledgerFault = (err: unknown) => /(no such table: |constraint failed: )activity_log/i.test(String(err));

/** One door's ledger: the `journal`/`batch` pair of its service contexts and the door's `settle`. */
export interface Ledger {
  journal: ServiceCtx["journal"];
  batch: ServiceCtx["batch"];
  /**
   * Entries of this door that were written, in order: a queued entry no batch took (a guarded
   * `ifChanged` write that changed nothing, a ledger fault) is not here, so no door names it.
   */
  readonly entries: readonly ActivityInsert[];
  /** How many entries the door's verbs queued, written or not (the door's "no verb journaled"). */
  readonly journaled: number;
  /** The door answers: on success the entries no batch took are written (one batch), else dropped. */
  settle(ok: boolean): Promise<void>;
}

export function openLedger(db: Db, clock: Clock, envelope: () => Envelope): Ledger {
  const entries: ActivityInsert[] = [];
  let journaled = 0;
  let queued: ActivityInsert[] = [];
  const fail = (rows: ActivityInsert[], err: unknown) =>
    log("error", "activity.capture_failed", { entries: rows.map((r) => r.id), error: String(err) });
  /** Records the rows a batch wrote (a guarded insert that changed nothing did not). */
  const wrote = (rows: ActivityInsert[], results?: readonly unknown[]) =>
    rows.forEach((r, i) => {
      if (!results || ((results[i] as D1Result | undefined)?.meta?.changes ?? 0) > 0) entries.push(r);
    });
  return {
    entries,
    get journaled() {
      return journaled;
    },
    journal(entry) {
      const row = entryRow(entry, entry.id ?? newEntryId(), clock().toISOString(), envelope());
      journaled++;
      queued.push(row);
      return row.id;
    },
    async batch<T extends Statements>(
      stmts: T,
      opts: { ifChanged?: boolean } = {},
    ): Promise<BatchResponse<T>> {
      const rows = queued;
      queued = [];
      if (rows.length === 0) return db.batch(stmts);
      const ledger = opts.ifChanged ? entryInsertsIfChanged(db, rows) : entryInserts(db, rows);
      try {
        const all = (await db.batch([...stmts, ...ledger] as unknown as T)) as unknown[];
        wrote(rows, opts.ifChanged ? all.slice(stmts.length) : undefined);
        return all.slice(0, stmts.length) as BatchResponse<T>;
      } catch (err) {
        // The ledger never fails a write (SPEC.md): only a fault of its own table is retried without it.
        if (!ledgerFault(err)) throw err;
        fail(rows, err);
        return db.batch(stmts);
      }
    },
    async settle(ok) {
      const rows = queued;
      queued = [];
      if (!ok || rows.length === 0) return;
      const [first, ...rest] = entryInserts(db, rows);
      await db.batch([first!, ...rest]).then(
        () => wrote(rows),
        (err) => fail(rows, err),
      );
    },
  };
}

/** A ledger for a door whose envelope is known up front (MCP tool, queue job, cron duty). */
export function doorCtx(
  env: Env,
  clock: Clock,
  envelope: Envelope,
  waitUntil: ServiceCtx["waitUntil"] = (p) => void p.catch(() => undefined),
): { ctx: ServiceCtx; ledger: Ledger } {
  const ledger = openLedger(getDb(env.DB), clock, () => envelope);
  const ctx: ServiceCtx = {
    env,
    clock,
    principal: envelope.principal,
    waitUntil,
    journal: ledger.journal,
    batch: ledger.batch,
  };
  return { ctx, ledger };
}

/** The principal background duties run as. */
export const SYSTEM: Principal = { kind: "system", id: null, label: null, scope: null };

/** A queue job's or cron duty's context: entries under the job's name, written when it settles. */
export const jobCtx = (env: Env, clock: Clock, name: string) =>
  doorCtx(env, clock, { principal: SYSTEM, operationId: name, method: "JOB", path: name });
