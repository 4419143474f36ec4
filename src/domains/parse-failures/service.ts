import { getDb } from "../../db";
import type { JournalEntry, ServiceCtx } from "../../lib/context";
import { conflict, notFound, Refused, validationError } from "../../lib/errors";
import { formatCents, toCents } from "../../lib/money";
import { decodeTxId, encodeTxId } from "../../lib/txid";
import { suggestValues } from "../templates/engine";
import type { TransactionRecord } from "../../ingest/types";
import { currentImage } from "../transactions/service";
import { deleteRowStatements } from "../transactions/queries";
import { createdImage } from "../transactions/rules";
import { createIngestDeps, type DepsOptions } from "../../ingest";
import { senderHost } from "../templates/engine";
import type { Statement } from "../../db/lists";
import type { IngestDeps } from "../../ingest/types";
import {
  batchedLearning,
  type LearnOutcome,
  NOT_ASKED,
  planLearning,
  saveLearned,
  wantsLearning,
} from "./learn";
import {
  type BacklogAfter,
  backlogQuery,
  getFailure,
  listFailures,
  settledByInsert,
  statusUpdate,
  unresolveQuery,
} from "./queries";
import { commitManual, exampleOf, missReason, replayDeterministic } from "./replay";
import { type FailureRow, matchesFilter, toDetail, toSummary, unseenValues, yearOf } from "./rules";
import type { ManualResolveRequest, ResolveImage } from "./schemas";

async function mustGet(ctx: ServiceCtx, id: string): Promise<FailureRow> {
  const row = await getFailure(getDb(ctx.env.DB), id);
  if (!row) throw notFound("Parse failure");
  return row;
}

/** Quarantined rows, newest first; without a status filter, every row not dismissed. */
export async function listParseFailures(
  ctx: ServiceCtx,
  { status, limit }: { status: string | null; limit: number },
) {
  const rows = await listFailures(getDb(ctx.env.DB), status, limit);
  return { count: rows.length, failures: rows.map(toSummary) };
}

export async function getParseFailure(ctx: ServiceCtx, id: string) {
  return toDetail(await mustGet(ctx, id));
}

/** Dismiss: the row leaves the default listing (idempotent); the entry rides in the status write. */
export async function dismissParseFailure(ctx: ServiceCtx, id: string) {
  await mustGet(ctx, id);
  ctx.journal({ resourceId: id, summary: "dismissed" });
  const update = statusUpdate(getDb(ctx.env.DB), id, "dismissed", ctx.clock().toISOString());
  await ctx.batch([update], { ifChanged: true });
  return { failure_id: id, status: "dismissed" };
}

/**
 * Replays one row. `entry`: the row's own ledger entry (a single retry): a recovered row's status
 * and entry ride in the insert's own batch (guarded: only when the row was inserted), else the
 * entry rides in the status write. `defer`: the status write is handed to the caller (retry-all
 * writes every row's in one batch at the end, with its one entry).
 */
async function retryRow(
  ctx: Pick<ServiceCtx, "journal" | "batch">,
  {
    deps,
    row,
    entry,
    defer,
  }: {
    deps: IngestDeps;
    row: FailureRow;
    entry?: (status: string) => JournalEntry;
    defer?: (status: Statement) => void;
  },
) {
  const nowIso = deps.clock().toISOString();
  const write = async (status: string, ...args: Parameters<typeof statusUpdate>) => {
    if (defer) return defer(statusUpdate(...args));
    if (entry) ctx.journal(entry(status));
    await ctx.batch([statusUpdate(...args)], { ifChanged: entry !== undefined });
  };
  const db = deps.db;
  const result = await replayDeterministic(
    deps,
    row,
    entry
      ? {
          journal: { ctx, entry: () => entry("recovered") },
          withRow: (dfn) => [settledByInsert(db, row.id, "recovered", { dateFileName: dfn, nowIso })],
        }
      : {},
  );
  if (result.status === "failed") {
    const status = row.status === "dismissed" ? "dismissed" : "quarantined";
    await write("still_failing", db, row.id, status, nowIso, { stage: result.stage });
    return {
      failure_id: row.id,
      status: "still_failing" as const,
      date_file_name: null,
      failure_stage: result.stage,
      reason: await missReason(deps, result.envelope),
    };
  }
  // A duplicate's tx carries the stored twin's key.
  const dfn = result.tx.DateFileName;
  const status = result.status === "created" ? ("recovered" as const) : ("duplicate" as const);
  if (!(entry && result.status === "created")) {
    await write(status, db, row.id, "recovered", nowIso, { resolvedTx: dfn });
  }
  return { failure_id: row.id, status, date_file_name: dfn, failure_stage: null, reason: null };
}

/**
 * A failure's replay deps, with what its columns key read in the settings batch as a door reads
 * them: its recipient's mapping, its sender's learned templates and the budget targets of its
 * stored email date's year (or `opts.targetsYear`).
 */
function replayDeps(ctx: ServiceCtx, row: FailureRow, opts: DepsOptions) {
  const host = senderHost(row.from_email);
  return createIngestDeps(ctx.env, {
    clock: ctx.clock,
    recipient: row.forwarded_to ?? "",
    targetsYear: yearOf(row.email_date),
    ...(host ? { templatesHost: host } : {}),
    ...opts,
  });
}

/** The pending failure `id` (404 without a row; 409 when already recovered or resolved) and its deps. */
export async function pendingWithDeps(ctx: ServiceCtx, { id, opts }: { id: string; opts: DepsOptions }) {
  const row = await mustGet(ctx, id);
  if (row.status === "recovered" || row.status === "resolved") {
    throw conflict(`Parse failure ${id} is already ${row.status}`);
  }
  return { deps: await replayDeps(ctx, row, opts), row };
}

/** Re-runs the deterministic parsers from the raw in R2. */
export async function retryParseFailure(ctx: ServiceCtx, { id, opts }: { id: string; opts?: DepsOptions }) {
  const { deps, row } = await pendingWithDeps(ctx, { id, opts: { ...opts, source: "retry" } });
  return retryRow(ctx, { deps, row, entry: (status) => ({ resourceId: id, summary: `retried: ${status}` }) });
}

/** Rows one retry-all step reads (each recovered row costs a few D1 queries: well within half of 1,000). */
export const RETRY_STEP_ROWS = 100;

/**
 * One step of retry-all: up to `limit` rows of the backlog after `after` (the whole backlog when it
 * is smaller); `next` is where the following step starts, null once the backlog is read to its end.
 */
export async function retryAllParseFailures(
  ctx: ServiceCtx,
  {
    filter,
    opts,
    after = null,
    limit = RETRY_STEP_ROWS,
  }: {
    filter: { from_domain?: string | null; institution?: string | null };
    opts?: DepsOptions;
    after?: BacklogAfter;
    limit?: number;
  },
) {
  const backlog = await backlogQuery(getDb(ctx.env.DB), limit, after);
  const rows = backlog.filter((r) => matchesFilter(r, filter));
  // Rows of one recipient, sender and year share their deps (one settings read).
  const shared = new Map<string, Promise<IngestDeps>>();
  const depsOf = (row: FailureRow) => {
    const key = JSON.stringify([row.forwarded_to, senderHost(row.from_email), yearOf(row.email_date)]);
    if (!shared.has(key)) shared.set(key, replayDeps(ctx, row, { ...opts, source: "retry" }));
    return shared.get(key)!;
  };
  const totals = { retried: 0, created: 0, duplicates: 0, still_failing: 0 };
  // One entry for the request, riding in the status batch (written by the door when none ran).
  ctx.journal({ summary: `retried the quarantined backlog (${rows.length})` });
  const statuses: Statement[] = [];
  for (const row of rows) {
    const r = await retryRow(ctx, { deps: await depsOf(row), row, defer: (s) => statuses.push(s) });
    totals.retried++;
    if (r.status === "recovered") totals.created++;
    else if (r.status === "duplicate") totals.duplicates++;
    else totals.still_failing++;
  }
  const [first, ...rest] = statuses;
  if (first) await ctx.batch([first, ...rest]);
  const last = backlog.at(-1);
  const next: BacklogAfter =
    backlog.length >= limit && last ? { created_at: last.created_at, id: last.id } : null;
  return { totals, next };
}

/**
 * Creates the transaction a person typed in for a quarantined email. One ledger entry, in the batch
 * of the write it describes: a template merge's (learning is planned from reads first, so this is
 * known before the row is written), else the resolve's own, with the row.
 */
export async function resolveParseFailure(
  ctx: ServiceCtx,
  { id, input }: { id: string; input: ManualResolveRequest },
) {
  // The typed date's year names the budget targets read with the settings.
  const { deps, row } = await pendingWithDeps(ctx, {
    id,
    opts: { ai: null, source: "resolve", targetsYear: Number(input.date.slice(0, 4)) },
  });
  // A typed amount or date the email does not print is refused before anything is saved (2375 typed
  // for $23.75), unless the person confirms it.
  if (!input.confirm_not_in_email) await refuseUnseen(deps, row, input);
  const plan = wantsLearning(row, input) ? await planLearning(deps, row, input) : null;
  // Undoable: the revert deletes the row and puts the failure back in its earlier status.
  const entry = (tx: TransactionRecord) => ({
    kind: RESOLVE_KIND,
    resourceId: id,
    before: { status: row.status, tx_id: null },
    after: {
      status: "resolved",
      tx_id: encodeTxId(tx.ForwardedTo, tx.DateFileName),
      transaction: createdImage(tx),
    },
    summary: `resolved as ${input.company.trim()} ${formatCents(toCents(input.amount))}${
      input.proposed ? "; values proposed by the model" : ""
    }`,
  });
  // The failure is marked resolved in the insert's own batch, only when the row is inserted; so is
  // a new template (guarded the same way: never saved for a 409).
  const nowIso = ctx.clock().toISOString();
  const early = await batchedLearning(deps, plan);
  // A merge's entry replaces the resolve's in the insert's batch.
  const result = await commitManual(deps, row, input, {
    journal: { ctx, entry: early?.entry ? () => early.entry! : entry },
    withRow: (dfn) => [
      settledByInsert(deps.db, id, "resolved", { dateFileName: dfn, nowIso }),
      ...(early ? [early.stmt] : []),
    ],
  });
  if (result.status === "invalid") {
    throw validationError(
      [{ loc: ["body"], msg: result.reason, type: "value_error" }],
      "The transaction was rejected by the store",
    );
  }
  if (result.status === "duplicate") {
    throw conflict("An identical transaction is already stored", "CONFLICT", {
      date_file_name: result.tx.DateFileName,
    });
  }
  const inBatch = early?.outcome(result.rowResults) ?? null;
  // A merge whose template went away meanwhile wrote nothing: the example is saved as its own.
  const outcome: LearnOutcome =
    inBatch ??
    (plan?.kind === "merge"
      ? await saveLearned(deps, plan.save)
      : plan?.kind === "nothing"
        ? plan.outcome
        : NOT_ASKED);
  const { merged, ...learned } = outcome;
  // An entry the batch did not write (a merge that found its template gone): the door writes the resolve's.
  const written = early?.entry && !inBatch ? undefined : result.activityId;
  const activityId = written ?? ctx.journal(entry(result.tx));
  return {
    response: { failure_id: id, status: "resolved", date_file_name: result.tx.DateFileName, ...learned },
    merged,
    activityId,
  };
}

/** The resource kind of a resolve's ledger entry (its reverter: `parseFailureReverters`). */
export const RESOLVE_KIND = "parse-failure-resolve";

/** 422 NOT_IN_EMAIL naming each typed value the email does not print, with what it does say. */
async function refuseUnseen(deps: IngestDeps, row: FailureRow, input: ManualResolveRequest) {
  const { body, sentIso } = await exampleOf(deps, row);
  const unseen = unseenValues(body, sentIso, { amount: toCents(input.amount), date: input.date });
  if (unseen.length === 0) return;
  throw new Refused(
    `Not saved: ${unseen.map((u) => u.msg).join("; ")}. Check what you typed, or confirm it ` +
      "(confirm_not_in_email: true) to save it as typed.",
    "NOT_IN_EMAIL",
    { unseen, suggestion: suggestValues(body, sentIso) },
  );
}

/** A resolve's current image: the failure's status and the row it made, as the entry's after holds it. */
export async function currentResolve(ctx: ServiceCtx, { id, after }: { id: string; after: unknown }) {
  const row = await getFailure(getDb(ctx.env.DB), id);
  if (!row) return null;
  const txId = (after as { tx_id?: unknown } | null)?.tx_id;
  const image = typeof txId === "string" ? await currentImage(ctx, txId) : null;
  return { status: row.status, tx_id: image ? txId : null, transaction: image };
}

/**
 * Undo of a resolve: the row it created is deleted and the failure is back in its earlier status
 * (pending again), in one batch with the revert's entry. 409 when the failure is gone or no
 * longer resolved.
 */
export async function undoResolve(
  ctx: ServiceCtx,
  {
    id,
    before,
    after,
    opts,
  }: { id: string; before: ResolveImage; after: unknown; opts: { journal?: () => void } },
) {
  const row = await getFailure(getDb(ctx.env.DB), id);
  if (row?.status !== "resolved") throw conflict("This email is no longer resolved");
  const txId = (after as { tx_id?: unknown } | null)?.tx_id;
  const key = typeof txId === "string" ? decodeTxId(txId) : null;
  const db = getDb(ctx.env.DB);
  const nowIso = ctx.clock().toISOString();
  opts.journal?.();
  const [first, ...rest] = [
    ...(key ? deleteRowStatements(db, key, nowIso) : []),
    unresolveQuery(db, id, before.status, nowIso),
  ];
  await ctx.batch([first!, ...rest]);
}

/**
 * to-fixture writes a scrubbed fixture pair into the source checkout. A Worker has no writable
 * checkout, so this deployment always refuses (demo mode already answers 405 before this).
 */
export async function parseFailureToFixture(ctx: ServiceCtx, id: string): Promise<never> {
  await mustGet(ctx, id);
  throw conflict(
    "to-fixture needs a writable source checkout, which a Cloudflare Worker does not have: " +
      "download the raw email (raw_key) and add the fixture in your checkout instead",
    "NO_SOURCE_CHECKOUT",
  );
}
