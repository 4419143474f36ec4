/**
 * Teaching a PDF layout: the marks read the stored file; the layout's save, the statement's rows
 * read again with it and the layout's entry (with images, undoable) in one write batch.
 */
import { getDb } from "../../db";
import type { ServiceCtx } from "../../lib/context";
import { layoutItem, listLayouts, teachLayout } from "./layouts/service";
import type { LayoutMarks } from "./layouts/read";
import { loadStatement, reread } from "./service";

export async function teachStatementLayout(
  ctx: ServiceCtx,
  {
    id,
    body,
  }: { id: string; body: { marks: LayoutMarks; name?: string; institution?: string; proposed?: boolean } },
) {
  const loaded = await loadStatement(ctx, id);
  const stored = await listLayouts(getDb(ctx.env.DB));
  const taught = await teachLayout(ctx, { stmt: loaded.stmt, body, layouts: stored });
  const statement = await reread(ctx, {
    loaded,
    bytes: taught.bytes,
    layouts: taught.layouts,
    extra: [taught.save],
    // The layout's entry (queued by teachLayout) rides in this batch; the re-read adds none.
    summary: null,
  });
  return { layout: layoutItem(taught.after), statement };
}
