/**
 * Teaching a PDF layout: the statement, its rows, the taught layouts and the period's guessed reads
 * in one round trip; the marks read the stored file; the layout's save, the statement's rows read
 * again with it and the layout's entry (with images, undoable) in one write batch.
 */
import { getDb } from "../../db";
import type { StatementLayoutRecord } from "../../db/schema";
import type { ServiceCtx } from "../../lib/context";
import { layoutItem, layoutsQuery, teachLayout } from "./layouts/service";
import type { LayoutMarks } from "./layouts/read";
import { loadWithGuess } from "./read-ahead";
import { reread } from "./service";

export async function teachStatementLayout(
  ctx: ServiceCtx,
  {
    id,
    body,
  }: { id: string; body: { marks: LayoutMarks; name?: string; institution?: string; proposed?: boolean } },
) {
  const db = getDb(ctx.env.DB);
  const loaded = await loadWithGuess(ctx, { id, extra: [layoutsQuery(db)] });
  const stored = loaded.extra[0] as StatementLayoutRecord[];
  const taught = await teachLayout(ctx, { stmt: loaded.stmt, body, layouts: stored });
  const statement = await reread(ctx, {
    loaded,
    bytes: taught.bytes,
    layouts: taught.layouts,
    extra: [taught.save],
    // The layout's entry (queued by teachLayout) rides in this batch; the re-read adds none.
    summary: null,
    guessed: loaded.guessed,
    config: loaded.config,
  });
  return { layout: layoutItem(taught.after), statement };
}
