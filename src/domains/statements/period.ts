/**
 * What reconciling a statement reads, in one batch: the resolver's version stamp (and its lists
 * when this isolate's copy expired), the stored rows of the match window and the other statements'
 * rows of the transfer window. Both windows come from the parsed dates; an upload reads them before
 * its parse over a GUESSED window (the upload day's last 95 days and next 7, a statement's usual
 * place) with what its parse needs (`withGuess`). After the parse the guessed rows are kept when
 * the guess covers the parse's windows (filtered with the SQL's own comparisons: the same rows),
 * else the windows are read.
 */
import { resolverReads } from "../../categorize/resolver";
import { getDb, namedBatch, type Query } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import type { getConfig } from "../config/service";
import { otherAccountRowsQuery, storedInWindowQuery, withDeleted } from "./queries";
import { shiftDay } from "./parsers/dates";
import { matchWindow } from "./rules";
import { TRANSFER_DAYS } from "./transfers";

/** [lo, hi) for the match window, [lo, hi] for the transfer window (ISO days). */
type Span = { lo: string; hi: string } | null;
/** The settings as a statement verb reads them once (the AI switches, the routing). */
export type Settings = Awaited<ReturnType<typeof getConfig>>;

interface PeriodReads {
  resolverVersion: string;
  stored: ReturnType<typeof withDeleted>;
  others: Awaited<ReturnType<typeof otherAccountRowsQuery>>;
}

/** The period's rows read before the parse over the guessed window. */
export interface Guessed extends PeriodReads {
  span: { lo: string; hi: string };
}

function periodQueries(ctx: ServiceCtx, statementId: string, match: Span, transfer: Span) {
  const db = getDb(ctx.env.DB);
  const resolver = resolverReads(db, ctx.clock);
  const n = resolver.stmts.length;
  // A window left out is read over an empty range, so each result keeps its place.
  const stmts: Query[] = [
    ...resolver.stmts,
    storedInWindowQuery(db, match?.lo ?? "", match?.hi ?? ""),
    otherAccountRowsQuery(db, statementId, transfer?.lo ?? "1", transfer?.hi ?? "0"),
  ];
  const take = (res: unknown[]): PeriodReads => ({
    resolverVersion: resolver.take(res.slice(0, n)),
    stored: withDeleted(res[n] as Parameters<typeof withDeleted>[0]),
    others: res[n + 1] as PeriodReads["others"],
  });
  return { stmts, take };
}

/** An upload's own pre-parse read with the period's over the window guessed around `day`: one round trip. */
export async function withGuess<Q extends Query>(
  ctx: ServiceCtx,
  { own, statementId, day }: { own: Q | undefined; statementId: string; day: string },
) {
  const span = { lo: shiftDay(day, -95), hi: shiftDay(day, 7) };
  const period = periodQueries(ctx, statementId, span, span);
  const read = await namedBatch(getDb(ctx.env.DB), { own, period: period.stmts });
  const guessed: Guessed = { span, ...period.take(read.period) };
  return { own: read.own, guessed };
}

const within = (read: { lo: string; hi: string }, need: Span) =>
  need === null || (read.lo <= need.lo && need.hi <= read.hi);

/** The guessed reads cut to the parse's windows, or null when the guess does not cover them. */
function fromGuess(g: Guessed, match: Span, transfer: Span): PeriodReads | null {
  if (!within(g.span, match) || !within(g.span, transfer)) return null;
  const dots = (iso: string) => iso.replaceAll("-", ".");
  const stored = match
    ? g.stored.filter((x) => x.DateFileName >= dots(match.lo) && x.DateFileName < dots(match.hi))
    : [];
  const others = transfer ? g.others.filter((x) => x.date >= transfer.lo && x.date <= transfer.hi) : [];
  return { resolverVersion: g.resolverVersion, stored, others };
}

/** The period's reads for the parsed `dates` in one round trip (none when `guessed` covers them). */
export async function periodReads(
  ctx: ServiceCtx,
  { statementId, dates, guessed }: { statementId: string; dates: string[]; guessed: Guessed | null },
): Promise<PeriodReads> {
  const sorted = [...dates].sort();
  const match = matchWindow(sorted);
  const transfer = sorted.length
    ? { lo: shiftDay(sorted[0]!, -TRANSFER_DAYS), hi: shiftDay(sorted.at(-1)!, TRANSFER_DAYS) }
    : null;
  const kept = guessed && fromGuess(guessed, match, transfer);
  if (kept) return kept;
  const period = periodQueries(ctx, statementId, match, transfer);
  return period.take((await namedBatch(getDb(ctx.env.DB), { period: period.stmts })).period);
}
