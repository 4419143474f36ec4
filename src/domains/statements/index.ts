/** The statements domain: its router, its ledger reverter, and what coverage reads. */
import {
  BulkUpdateStatementRows,
  ConfirmCsvMapping,
  DeleteStatement,
  DownloadStatement,
  GetStatement,
  ImportStatementRows,
  ListStatements,
  ReparseStatement,
  UpdateStatementRow,
  UploadStatement,
  GetPageText,
  TeachLayout,
  ProposeLayout,
  DeleteLayout,
  ListLayouts,
  RenameLayout,
} from "./routes";
import { domainRouter } from "../../http/route";
import type { ServiceCtx } from "../../lib/context";
import { type Reverters, typedReverter } from "../activity/reverters";
import { currentImage, restoreImage } from "./import";
import { ImportImageShape, ReviewImageShape } from "./ledger-images";
import { currentReview, restoreReview } from "./review-image";
import { getLayout, restoreLayout } from "./layouts/service";
import { LayoutImage } from "./layouts/stored";

export function statementsRouter() {
  const r = domainRouter();
  r.post("/upload", UploadStatement);
  r.post("/import", ImportStatementRows);
  r.get("/", ListStatements);
  r.get("/layouts", ListLayouts);
  r.patch("/layouts/:layout_id", RenameLayout);
  r.delete("/layouts/:layout_id", DeleteLayout);
  r.get("/:statement_id", GetStatement);
  r.delete("/:statement_id", DeleteStatement);
  r.get("/:statement_id/download", DownloadStatement);
  r.post("/:statement_id/reparse", ReparseStatement);
  r.put("/:statement_id/csv-mapping", ConfirmCsvMapping);
  r.get("/:statement_id/page-text", GetPageText);
  r.get("/:statement_id/layout-proposal", ProposeLayout);
  r.put("/:statement_id/layout", TeachLayout);
  r.patch("/:statement_id/transactions", BulkUpdateStatementRows);
  r.patch("/:statement_id/transactions/:tx_index", UpdateStatementRow);
  return r;
}

/**
 * This domain's ledger reverters (app.ts registers them): an import entry is undone as a whole;
 * a review edit (one row or a bulk edit) puts the rows' earlier choices back. Each restore runs
 * its write through `ctx.batch`, so the revert's own entry (queued first) rides in it. Each
 * declares its image's shape: the ledger reads the before image through it (a typed restore).
 */
export const statementReverters: Reverters = {
  "statement-review": typedReverter(ReviewImageShape, {
    current: currentReview,
    restore: journaled(restoreReview),
  }),
  "statement-layout": typedReverter(LayoutImage, { current: getLayout, restore: journaled(restoreLayout) }),
  "statement-import": typedReverter(ImportImageShape, {
    current: currentImage,
    restore: journaled(restoreImage),
  }),
};

/** A restore whose revert entry (queued first) rides in its batch. */
function journaled<T>(restore: (ctx: ServiceCtx, at: { id: string; before: T }) => Promise<void>) {
  return (ctx: ServiceCtx, id: string, before: T, opts: { journal?: () => void }) => {
    opts.journal?.();
    return restore(ctx, { id, before });
  };
}
