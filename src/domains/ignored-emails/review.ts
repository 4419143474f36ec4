/**
 * The ledger a "this was a bank alert" re-run hands the pipeline (`IngestDeps.ledger`): the
 * verb's writes (the row's status with the failure it became, the sender's trust) and its own
 * entry ride in the first batch that settles the email, ahead of the pipeline's statements (so
 * their `changes()` guards and result positions stay the pipeline's). The pipeline's outcome
 * entries only tell which outcome that batch settles (the verb writes one entry, not two).
 */
import type { Statement } from "../../db/lists";
import type { IngestLedger } from "../../ingest/ledger";
import type { JournalEntry, ServiceCtx, Statements } from "../../lib/context";

/** An outcome entry of the pipeline (ingest/ledger.ts, pipeline.ts): `<status>: …`, its resource. */
const outcomeOf = (e: JournalEntry) => ({
  status: /^(\w+):/.exec(e.summary ?? "")?.[1] ?? "unknown",
  resourceId: e.resourceId ?? null,
});

export function reviewLedger(
  ctx: Pick<ServiceCtx, "journal" | "batch">,
  {
    writes,
    entry,
  }: {
    /** The verb's writes, for the failure the email became (null: none). */
    writes: (failureId: string | null) => Statement[];
    /** The verb's entry, for the outcome. */
    entry: (status: string) => JournalEntry;
  },
) {
  let outcome: ReturnType<typeof outcomeOf> | null = null;
  let settledAs: string | null = null;
  const ledger: IngestLedger = {
    journal(e) {
      outcome = outcomeOf(e);
      return e.id ?? "";
    },
    async batch(stmts, opts) {
      const now = outcome;
      if (settledAs || !now) return ctx.batch(stmts, opts);
      const mine = writes(now.status === "quarantined" ? now.resourceId : null);
      ctx.journal(entry(now.status));
      const all = await ctx.batch([...mine, ...stmts] as unknown as Statements, opts);
      settledAs = now.status;
      return all.slice(mine.length) as never;
    },
  };
  /** The outcome the verb's writes rode with (null: none did; the verb writes them itself). */
  return { ledger, settledAs: () => settledAs };
}
