import { domainRouter } from "../../http/route";
import type { Reverters } from "../activity/reverters";
import { ListReceiptMatchCandidates } from "./routes/candidates";
import { DeleteAttachment } from "./routes/delete";
import { DownloadAttachmentFile } from "./routes/file";
import { LinkAttachment } from "./routes/link";
import { ListAttachments, ListTransactionAttachments } from "./routes/list";
import { ParseReceipt } from "./routes/parse";
import { UploadAttachment } from "./routes/upload";
import { currentLink, restoreLink } from "./service";

/** Mounted at /api/v1: the /attachments routes and GET /transactions/{tx_id}/attachments. */
export function attachmentsRouter() {
  const r = domainRouter();
  r.get("/attachments", ListAttachments);
  r.post("/attachments", UploadAttachment);
  r.get("/attachments/:attachment_id/file", DownloadAttachmentFile);
  r.post("/attachments/:attachment_id/parse", ParseReceipt);
  r.get("/attachments/:attachment_id/candidates", ListReceiptMatchCandidates);
  r.post("/attachments/:attachment_id/link", LinkAttachment);
  r.delete("/attachments/:attachment_id", DeleteAttachment);
  r.get("/transactions/:tx_id/attachments", ListTransactionAttachments);
  return r;
}

/** This domain's ledger reverters (app.ts registers them): link and unlink, incl. auto-links. */
export const attachmentReverters: Reverters = {
  attachment: { current: currentLink, restore: restoreLink },
};
