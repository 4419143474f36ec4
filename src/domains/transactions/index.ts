import {
  BulkUpdateTransactionCategory,
  PatchTransaction,
  SetTransactionComment,
  UpdateTransactionFields,
  GetAttentionQueue,
  ListAllTransactions,
  ListTransactions,
  ListTrashedTransactions,
  AddManualTransaction,
  ListTransactionAttachments,
  UploadEml,
  GetLatestTransactionTimestamp,
  GetTransactionDetail,
  ListBulkTransactions,
  ExportTransactionsCsv,
  SearchTransactions,
  SearchTransactionsByFilter,
  MarkTransactionReviewed,
  PermanentlyDeleteTransaction,
  SetTransactionIgnored,
  SoftDeleteTransaction,
} from "./routes";
import { domainRouter } from "../../http/route";
import { type Reverters, typedReverter } from "../activity/reverters";
import { currentBulkImage, restoreBulkImage } from "./bulk";
import { EditableImage } from "./rules";
import { currentImage, removeAdded, restoreImage } from "./service";
import { z } from "zod";
import { storedJson } from "../../db/json";

/** /api/v1/transactions: static paths first, then the {tx_id} routes. */
export function transactionsRouter() {
  const r = domainRouter();
  r.get("/", ListTransactions);
  r.post("/", AddManualTransaction);
  r.get("/all", ListAllTransactions);
  r.get("/attention", GetAttentionQueue);
  r.get("/trash", ListTrashedTransactions);
  r.get("/latest", GetLatestTransactionTimestamp);
  r.get("/bulk", ListBulkTransactions);
  r.patch("/bulk", BulkUpdateTransactionCategory);
  r.get("/search", SearchTransactions);
  r.post("/search-by-filter", SearchTransactionsByFilter);
  r.get("/export", ExportTransactionsCsv);
  r.post("/upload-eml", UploadEml);
  r.get("/:tx_id/detail", GetTransactionDetail);
  r.get("/:tx_id/attachments", ListTransactionAttachments);
  r.patch("/:tx_id", PatchTransaction);
  r.delete("/:tx_id", PermanentlyDeleteTransaction);
  r.put("/:tx_id/comment", SetTransactionComment);
  r.put("/:tx_id/fields", UpdateTransactionFields);
  r.post("/:tx_id/delete", SoftDeleteTransaction);
  r.post("/:tx_id/ignore", SetTransactionIgnored);
  r.post("/:tx_id/review", MarkTransactionReviewed);
  return r;
}

/** A bulk entry's resource id: the JSON list of its tx ids (a clear error when it is not one). */
const readBulkIds = storedJson("activity_log.resource_id (transactions-bulk)", z.array(z.string()));

/** A bulk entry's before image: each transaction's editable-fields image by tx id. */
const BulkImage = z.object({ rows: z.record(z.string(), EditableImage) });

/** This domain's ledger reverters (app.ts registers them). */
export const transactionReverters: Reverters = {
  // One transaction's editable fields: revert writes the before image back.
  transaction: typedReverter(EditableImage.nullable(), {
    current: currentImage,
    restore: (ctx, txId, image, opts) => restoreImage(ctx, { txId, image, opts }),
  }),
  // A row added by hand (before: `{}`, a create; after: its image): undo deletes it while it still
  // shows `after`.
  "transaction-add": typedReverter(z.object({}), {
    current: currentImage,
    restore: (ctx, txId, _none, opts) => removeAdded(ctx, { txId, opts }),
  }),
  // A bulk entry's resource id is the JSON list of its tx ids: the stale guard reads each row.
  "transactions-bulk": typedReverter(BulkImage, {
    current: (ctx, resourceId) => currentBulkImage(ctx, readBulkIds(resourceId)),
    restore: (ctx, _resourceId, before, opts) => restoreBulkImage(ctx, { image: before, opts }),
  }),
};
