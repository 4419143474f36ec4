/**
 * What reconciling a statement reads: the resolver's version stamp (and its lists when this
 * isolate's copy expired), the stored rows of the match window and the other statements' rows of
 * the transfer window. Those windows come from the parsed dates, so a verb that reads before it
 * parses (a stored statement and its rows, the taught layouts) reads them over a GUESSED window in
 * that same batch (`guessPart`): around the statement's stored rows, or around its upload day when
 * it has none. After the parse, `periodReads` keeps the guessed rows when the guess covers the
 * parse's windows (filtered to them with the same comparisons as the SQL: the same rows), else
 * reads them in one batch.
 */
import { resolverReads } from "../../categorize/resolver";
import { getDb } from "../../db";
import type { Statement } from "../../db/lists";
import type { ServiceCtx } from "../../lib/context";
import { getConfig, settingsBatchRead, settingsFresh } from "../config/service";
import {
  type GuessDays,
  guessBoundsQuery,
  guessWindowQueries,
  otherAccountRowsQuery,
  storedInWindowQuery,
  withDeleted,
} from "./queries";
import { FUZZY_DAYS, type StoredTx } from "./rules";
import { TRANSFER_DAYS } from "./transfers";

export type Span = { lo: string; hi: string } | null;
/** The settings as this request's statement verb reads them once (the AI switches, the routing). */
export type Settings = Awaited<ReturnType<typeof getConfig>>;
type Others = Awaited<ReturnType<typeof otherAccountRowsQuery>>;

export interface PeriodReads {
  /** The resolver's version stamp (undefined: getResolverIndex reads it itself). */
  resolverVersion?: string | null;
  /** The settings taken with these reads (undefined: read when needed). */
  config?: Settings;
  stored: (StoredTx & { deleted: boolean })[];
  others: Others;
}

/** Rows read before the parse over guessed windows (match: [lo, hi), transfer: [lo, hi], ISO days). */
export interface Guessed extends PeriodReads {
  match: Span;
  transfer: Span;
}

/** The guess with no stored rows: the upload day's last 95 days and next week (a statement's usual place). */
export const GUESS: GuessDays = {
  matchBefore: FUZZY_DAYS,
  matchAfter: FUZZY_DAYS + 1,
  transferDays: TRANSFER_DAYS,
  daysBefore: 95,
  daysAfter: 7,
};

/** Statements for the caller's read batch, and `take` (their results) → the guessed reads. */
interface GuessPart {
  stmts: Statement[];
  take(results: unknown[]): Guessed | null;
}

/**
 * The guessed reads for the caller's pre-parse batch: of a stored statement (`statementId`), or of
 * a file being uploaded now (`day`: its upload day; `statementId` is then the new statement's id).
 */
function guessPart(ctx: ServiceCtx, at: { statementId: string; day?: string }): GuessPart {
  const db = getDb(ctx.env.DB);
  const resolver = resolverReads(getDb(ctx.env.DB), ctx.clock);
  const n = resolver.stmts.length;
  const id = at.statementId;
  return {
    stmts: [
      ...resolver.stmts,
      guessBoundsQuery(db, id, GUESS, at.day),
      ...guessWindowQueries(db, id, GUESS, at.day),
    ],
    take: (res) => {
      const b = (
        res[n] as { mlo: string | null; mhi: string | null; tlo: string | null; thi: string | null }[]
      )[0];
      const version = resolver.take(res.slice(0, n));
      if (!b?.mlo || !b.mhi || !b.tlo || !b.thi) return null;
      return {
        resolverVersion: version,
        match: { lo: b.mlo, hi: b.mhi },
        transfer: { lo: b.tlo, hi: b.thi },
        stored: withDeleted(res[n + 1] as Parameters<typeof withDeleted>[0]),
        others: res[n + 2] as Others,
      };
    },
  };
}

/**
 * Runs the caller's pre-parse reads with the guessed ones in one batch. `config`: the settings,
 * taken once with them (`batchWithConfig`) for the rest of the verb.
 */
export async function withGuess(
  ctx: ServiceCtx,
  { own, at }: { own: Statement[]; at: { statementId: string; day?: string } },
): Promise<{ results: unknown[]; guessed: Guessed | null; config: Settings }> {
  const guess = guessPart(ctx, at);
  const { results: all, config } = await batchWithConfig(ctx, [...own, ...guess.stmts]);
  return { results: all.slice(0, own.length), guessed: guess.take(all.slice(own.length)), config };
}

/**
 * Runs `stmts` as one batch and takes the settings for the rest of the verb: this isolate's fresh
 * copy, else read in that batch (so a parse or plan that outlasts the copy's few seconds costs no
 * lone settings read after it).
 */
export async function batchWithConfig(
  ctx: ServiceCtx,
  stmts: Statement[],
): Promise<{ results: unknown[]; config: Settings }> {
  const early = settingsFresh(ctx) ? await getConfig(ctx) : null;
  const results = await withSettings(ctx, stmts);
  return { results, config: early ?? (await getConfig(ctx)) };
}

/**
 * Runs `stmts` as one batch, with the settings read when this isolate's copy is stale (kept as
 * loadSettings would: the parse's AI switch and the categories' reads after it cost no trip).
 */
async function withSettings(ctx: ServiceCtx, stmts: Statement[]): Promise<unknown[]> {
  const db = getDb(ctx.env.DB);
  const settings = settingsBatchRead(ctx);
  const all = settings ? [...stmts, settings.query] : stmts;
  const results = (await db.batch(all as unknown as Parameters<typeof db.batch>[0])) as unknown as unknown[];
  if (settings) settings.keep(results[stmts.length] as { data: string }[]);
  return results.slice(0, stmts.length);
}

const within = (read: Span, need: Span) =>
  need === null || (read !== null && read.lo <= need.lo && need.hi <= read.hi);

/** The guessed reads cut to the parse's windows, or null when the guess does not cover them. */
function fromGuess(g: Guessed, match: Span, transfer: Span): PeriodReads | null {
  if (!within(g.match, match) || !within(g.transfer, transfer)) return null;
  const dots = (iso: string) => iso.replaceAll("-", ".");
  const stored = match
    ? g.stored.filter((x) => x.DateFileName >= dots(match.lo) && x.DateFileName < dots(match.hi))
    : [];
  const others = transfer ? g.others.filter((x) => x.date >= transfer.lo && x.date <= transfer.hi) : [];
  return { resolverVersion: g.resolverVersion, stored, others };
}

/** The period's reads in ONE round trip (none when `guessed` covers them). */
export async function periodReads(
  ctx: ServiceCtx,
  {
    statementId,
    match,
    transfer,
    guessed = null,
  }: { statementId: string; match: Span; transfer: Span; guessed?: Guessed | null },
): Promise<PeriodReads> {
  const kept = guessed && fromGuess(guessed, match, transfer);
  if (kept) return kept;
  const db = getDb(ctx.env.DB);
  const resolver = resolverReads(getDb(ctx.env.DB), ctx.clock);
  const n = resolver.stmts.length;
  // A window left out is read over an empty range, so each result keeps its place.
  const { results, config } = await batchWithConfig(ctx, [
    ...resolver.stmts,
    storedInWindowQuery(db, match?.lo ?? "", match?.hi ?? ""),
    otherAccountRowsQuery(db, statementId, transfer?.lo ?? "1", transfer?.hi ?? "0"),
  ]);
  const [stored, others] = results.slice(n) as [Parameters<typeof withDeleted>[0], Others];
  return { resolverVersion: resolver.take(results.slice(0, n)), stored: withDeleted(stored), others, config };
}
